import { redirect, type ActionFunctionArgs } from "react-router";
import { replaceFeedToken, storedFeedToken } from "~/models/feeds/feed-token.server";
import { withPageErrors } from "~/web/page-errors.server";
import { requireUser } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * POST /settings/feed-token: Settings › Notifications' "Create feed token" / "Replace token"
 * (app/components/settings/feed-token.tsx; issue 26, CONTRACT.md §7 "Feeds"). A member with no token
 * gets their first; one with a token gets a new one, and the old stops opening their private clubs'
 * feeds. A GET changes nothing and goes to the tab.
 */
const BACK = "/settings?tab=notifications";

export const loader = () => redirect(BACK);

export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request }) => {
    const user = await requireUser(request);
    const replacing = (await storedFeedToken(user.id)) !== null;
    await replaceFeedToken(user.id);
    return redirectWithToast(
      BACK,
      replacing
        ? { title: "Feed token replaced", description: "Your private club feeds have new addresses; the old ones no longer work." }
        : { title: "Feed token created", description: "Your private club feed addresses are ready." },
    );
  });
}
