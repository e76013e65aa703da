/**
 * Checked by `npm run typecheck`, never run: every page action is a plain typed function, so
 * `useActionData<typeof action>()` knows its shapes. An action wrapped so that it returns a bare
 * `Response` (as `export const action = pageAction(...)` did) infers `any`, and this file stops
 * compiling.
 */
import type { useActionData } from "react-router";
import type * as auth from "~/routes/auth/route";
import type * as clubInvites from "~/routes/clubs.$id/tabs/invites";
import type * as clubRequests from "~/routes/clubs.$id/tabs/requests";
import type * as club from "~/routes/clubs.$id/route";
import type * as clubPostCreate from "~/routes/clubs.$id/create-post";
import type * as clubCreate from "~/routes/clubs.create/route";
import type * as create from "~/routes/create";
import type * as join from "~/routes/join.$code/route";
import type * as post from "~/routes/post.$id/route";
import type * as profile from "~/routes/profile.$username/route";
import type * as settings from "~/routes/settings/route";

type IsAny<T> = 0 extends 1 & T ? true : false;
type Typed<Action> = IsAny<NonNullable<ReturnType<typeof useActionData<Action>>>> extends false ? true : never;

export const everyPageActionIsTyped: [
  Typed<typeof auth.action>,
  Typed<typeof clubInvites.action>,
  Typed<typeof clubRequests.action>,
  Typed<typeof club.action>,
  Typed<typeof clubPostCreate.action>,
  Typed<typeof clubCreate.action>,
  Typed<typeof create.action>,
  Typed<typeof join.action>,
  Typed<typeof post.action>,
  Typed<typeof profile.action>,
  Typed<typeof settings.action>,
] = [true, true, true, true, true, true, true, true, true, true, true];
