import { createContext, useContext } from "react";

const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
/** The per-response CSP nonce; empty in the browser, where the scripts are already trusted. */
export const useNonce = () => useContext(NonceContext);
