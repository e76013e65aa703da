import { checkHealth, healthResponse } from "~/utils/health.server";
import { sqlite } from "~/utils/db.server";
import { isDraining } from "~/web/request-log.server";

/** CONTRACT.md §6 Health: 200 `{"ok":true}` when the database answers a read, 503 with the reason otherwise. */
export const loader = () => healthResponse(checkHealth(sqlite, isDraining()));
