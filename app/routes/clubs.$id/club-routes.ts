/**
 * The club's pages, all in this folder, named here rather than by their file names: the layout
 * (route.tsx: the header, its dialogs, the tab links), its five tabs (tabs/) and the page that posts
 * in the club (create-post.tsx, outside the layout). Flat routes see no file inside a route folder
 * but its route.tsx, so vite.config.ts leaves this folder out of them (`CLUB_ROUTES_FOLDER`) and
 * hands these entries to the Remix plugin's `routes` option instead.
 *
 * The ids are the ones the flat file names gave before the tabs moved in (`routes/clubs.$id._index`…):
 * the service worker and the saved offline pages key loader data by route id (app/sw/open-saved.ts,
 * app/offline/saved-pages.ts), and `?_data=` names them, so a changed id would orphan what members
 * saved. The paths are the URLs the members know.
 *
 * The shape is React Router 7's route config entry (`{ id, path, index, file, children }`), so its
 * `app/routes.ts` can list these beside `flatRoutes()` as they are. Plain data: the Vite config
 * imports this file, so it imports nothing.
 */
export type ClubRoute = { id: string; file: string; path?: string; index?: true; children?: ClubRoute[] };

/** This folder, as the flat-routes convention's ignore pattern names it (relative to app/). */
export const CLUB_ROUTES_FOLDER = "routes/clubs.$id";

export const clubRoutes: ClubRoute[] = [
  {
    id: "routes/clubs.$id",
    path: "clubs/:id",
    file: "routes/clubs.$id/route.tsx",
    children: [
      { id: "routes/clubs.$id._index", index: true, file: "routes/clubs.$id/tabs/posts.tsx" },
      { id: "routes/clubs.$id.members", path: "members", file: "routes/clubs.$id/tabs/members.tsx" },
      { id: "routes/clubs.$id.requests", path: "requests", file: "routes/clubs.$id/tabs/requests.tsx" },
      { id: "routes/clubs.$id.invites", path: "invites", file: "routes/clubs.$id/tabs/invites.tsx" },
      { id: "routes/clubs.$id.rules", path: "rules", file: "routes/clubs.$id/tabs/rules.tsx" },
      // Club hunts (issue 44): the Hunts tab, a hunt's page, and the plan and edit forms.
      { id: "routes/clubs.$id.events", path: "events", file: "routes/clubs.$id/tabs/hunts.tsx" },
      { id: "routes/clubs.$id.events.new", path: "events/new", file: "routes/clubs.$id/hunts/new.tsx" },
      { id: "routes/clubs.$id.events.$eventId", path: "events/:eventId", file: "routes/clubs.$id/hunts/hunt.tsx" },
      { id: "routes/clubs.$id.events.$eventId.edit", path: "events/:eventId/edit", file: "routes/clubs.$id/hunts/edit.tsx" },
    ],
  },
  { id: "routes/clubs.$id_.create", path: "clubs/:id/create", file: "routes/clubs.$id/create-post.tsx" },
  // The club's calendar feed (issue 44), outside the layout: a file, not a page.
  { id: "routes/clubs.$id_.events[.]ics", path: "clubs/:id/events.ics", file: "routes/clubs.$id/events-ics.ts" },
];
