import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { handleTus } from "~/web/tus.server";

/**
 * /api/uploads/<id>: HEAD (how much arrived), PATCH (the next bytes), DELETE (cancel) of the
 * member's own resumable upload, and GET (the stored file it became). See web/tus.server.ts.
 */
export const action = ({ request }: ActionFunctionArgs) => handleTus(request);
export const loader = ({ request }: LoaderFunctionArgs) => handleTus(request);
