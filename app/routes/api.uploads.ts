import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { handleTus } from "~/web/tus.server";

/**
 * POST /api/uploads: start a resumable upload (the tus protocol, docs/decisions/0035-resumable-uploads.md).
 * The upload widget uses it with JavaScript; /api/upload (multipart) stays for forms and API clients.
 */
export const action = ({ request }: ActionFunctionArgs) => handleTus(request);
export const loader = ({ request }: LoaderFunctionArgs) => handleTus(request);
