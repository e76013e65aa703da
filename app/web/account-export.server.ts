import type { AccountExport } from "~/models/members/account.server";
import { NO_STORE_VALUE } from "./cache-control.server";

/** The export as a file download: `private, no-store` (it holds the member's email). */
export function exportResponse(data: AccountExport): Response {
  const day = data.exportedAt.slice(0, 10);
  const filename = `whitetail-pulse-${data.profile.username}-${day}.json`;
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": NO_STORE_VALUE,
    },
  });
}
