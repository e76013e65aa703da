import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ClubErrorBoundary } from "~/components/club/error";
import { ClubImage, PrivacyIcon } from "~/components/club/card";
import { PostEditor } from "~/components/post/editor";
import { getClub, type Club } from "~/models/club.server";
import { CLUB_NOT_FOUND } from "~/schemas/club";
import { APP_NAME } from "~/utils/brand";
import { isAppError } from "~/utils/errors";
import { pageAction } from "~/web/page-action";
import { createPostFromForm } from "~/web/post-form.server";
import { requireUser } from "~/web/session.server";

function clubIdOf(value: string | undefined): number {
  if (!value || !/^[1-9][0-9]{0,15}$/.test(value)) throw json({ message: CLUB_NOT_FOUND }, { status: 404 });
  return Number(value);
}

function loadClub(user: { id: number }, id: number): Club {
  try {
    return getClub(user, id);
  } catch (error) {
    if (isAppError(error) && error.status === 404) throw json({ message: CLUB_NOT_FOUND }, { status: 404 });
    throw error;
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Post in ${data.club.name} · ${APP_NAME}` : `Create Post · ${APP_NAME}` },
];

/**
 * /clubs/{id}/create (the `_` keeps it out of the club page's layout): members only (visitors go to sign in and come back; others get 403). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const club = loadClub(user, clubIdOf(params.id));
  if (!club.isMember) throw json({ message: "Only members of this club can post in it." }, { status: 403 });
  return json({ club: { id: club.id, name: club.name, imageUrl: club.imageUrl, isPrivate: club.isPrivate } });
}

/** The one create-post use case (createPost checks the membership again): 'Post created!' then the club page. */
export const action = pageAction(async ({ request, params }) => {
  const user = await requireUser(request);
  const id = clubIdOf(params.id);
  return createPostFromForm(request, user, { clubId: id });
});

export default function CreateClubPostPage() {
  const { club } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="mb-6 text-3xl font-bold text-bark-900">Create Post</h1>
      <PostEditor
        lastResult={lastResult}
        clubId={club.id}
        cancelHref={`/clubs/${club.id}`}
        banner={
          <div className="card flex items-center gap-4 overflow-hidden" data-testid="club-banner">
            <ClubImage club={club} className="h-16 w-16 shrink-0" />
            <div className="min-w-0 py-2">
              <p className="text-xs uppercase tracking-wide text-stone-500">Posting in</p>
              <p className="flex items-center gap-2 font-bold text-bark-900">
                <Link to={`/clubs/${club.id}`} className="truncate hover:underline">
                  {club.name}
                </Link>
                <span className="text-stone-500">
                  <PrivacyIcon isPrivate={club.isPrivate} />
                </span>
              </p>
            </div>
          </div>
        }
      />
    </div>
  );
}

export const ErrorBoundary = ClubErrorBoundary;
