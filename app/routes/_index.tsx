import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { APP_NAME } from "~/utils/brand";
import { getSessionUser } from "~/utils/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  return json({ signedIn: Boolean(user) });
}

export default function Home() {
  const { signedIn } = useLoaderData<typeof loader>();
  return (
    <section className="rounded-xl bg-gradient-to-r from-bark-900 to-field-700 p-8 text-white">
      <h1 className="text-3xl font-bold">Welcome to {APP_NAME}</h1>
      <p className="mt-2 max-w-2xl text-bark-100">
        The hunter's pulse of whitetail intelligence: stories from the stand, scouting tips and the clubs that hunt together.
      </p>
      <div className="mt-6">
        {signedIn ? (
          <Link to="/create" className="btn-primary">
            Share Your Story
          </Link>
        ) : (
          <Link to="/auth?mode=register" className="btn-primary">
            Join the Community
          </Link>
        )}
      </div>
    </section>
  );
}
