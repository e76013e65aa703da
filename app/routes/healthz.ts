import { checkHealth, healthResponse, HEALTH_PROBE } from "~/utils/health.server";
import { databaseEngine, queryRows } from "~/utils/db.server";
import { isDraining } from "~/server/request-log.server";

/** CONTRACT.md §6, §9 Health: 200 `{"ok":true,"database":…}` when the database answers a read, 503 with the reason otherwise. */
export const loader = async () => healthResponse(await checkHealth(databaseEngine(), () => queryRows(HEALTH_PROBE), isDraining()));
