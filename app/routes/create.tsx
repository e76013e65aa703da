import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { PostEditor } from "~/components/post/editor";
import { APP_NAME } from "~/utils/brand";
import { pageAction } from "~/web/page-action";
import { createPostFromForm } from "~/web/post-form.server";
import { requireUser } from "~/web/session.server";

export const meta: MetaFunction = () => [{ title: `Create Post · ${APP_NAME}` }];

/** SPEC.md §2 Create post: visitors are sent to sign in and brought back here. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return json({});
}

export const action = pageAction(async ({ request }) => {
  const user = await requireUser(request);
  return createPostFromForm(request, user);
});

export default function CreatePostPage() {
  const lastResult = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="mb-6 text-3xl font-bold text-bark-900">Create Post</h1>
      <PostEditor lastResult={lastResult} />
    </div>
  );
}
