import { keepPageOnFailure } from "~/offline/client-action";

/** Log out is a POST (the avatar menu's form); a GET changes nothing. */
export { loader, action } from "./sign-out-page.server";

/** With JavaScript a failed logout says so and leaves the page as it was (SPEC.md §8). */
export const clientAction = keepPageOnFailure({ failed: () => ({ title: "Logout failed", type: "error" }) });
