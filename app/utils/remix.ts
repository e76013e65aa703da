import { useNavigation, type ShouldRevalidateFunction } from "react-router";
import { isUnsent, outboxRevalidating } from "./revalidation";

/**
 * Small Remix idioms shared by pages and components. Browser-safe.
 */

/**
 * Is a form submission of this page under way? Narrow it by the submit button's `intent`, the
 * form's action or method. Reads the navigation, so it covers plain `<Form>` posts; fetchers carry
 * their own `state`.
 */
export function useIsPending({
  intent,
  formAction,
  formMethod = "POST",
}: { intent?: string; formAction?: string; formMethod?: "POST" | "GET" | "PUT" | "PATCH" | "DELETE" } = {}): boolean {
  const navigation = useNavigation();
  if (navigation.state === "idle" || !navigation.formMethod) return false;
  if (navigation.formMethod.toUpperCase() !== formMethod) return false;
  if (formAction !== undefined && navigation.formAction !== formAction) return false;
  if (intent !== undefined && navigation.formData?.get("intent") !== intent) return false;
  return true;
}

/**
 * A `shouldRevalidate` for pages whose query carries view state (an open panel, `?edit=1`): when only
 * those parameters change, the data is the same and is not fetched again.
 */
export function ignoreSearchParams(keys: string[]): ShouldRevalidateFunction {
  return ({ currentUrl, nextUrl, formMethod, actionResult, defaultShouldRevalidate }) => {
    // After a send that did not arrive (offline/client-action.ts) nothing is fetched again.
    if (isUnsent(actionResult)) return false;
    // The outbox sent what waited: the page's data is loaded again (ADR 0034).
    if (outboxRevalidating()) return defaultShouldRevalidate;
    if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
    const strip = (url: URL) => {
      const params = new URLSearchParams(url.search);
      for (const key of keys) params.delete(key);
      params.sort();
      return params.toString();
    };
    return strip(currentUrl) === strip(nextUrl) ? false : defaultShouldRevalidate;
  };
}
