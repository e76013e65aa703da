import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noteMember } from "~/utils/logger.server";
import { readerTimeZone } from "~/utils/reader-time.server";
import { captureLog } from "#tests/fixtures/log";
import { loggedPath, requestLog, requestsInFlight, startDraining, trackServer, whenIdle } from "./request-log.server";

describe("loggedPath", () => {
  it("keeps routing parameters and drops other query values", () => {
    expect(loggedPath("/search?q=hidden+stand&_data=routes%2Fsearch")).toBe("/search?q&_data=routes%2Fsearch");
    expect(loggedPath("/?cursor=abc&email=a%40b.example")).toBe("/?cursor=abc&email");
    expect(loggedPath("/post/12")).toBe("/post/12");
  });
  it("replaces secret path segments: reset tokens and invite codes", () => {
    expect(loggedPath("/reset-password/s3cr3tT0ken?x=1")).toBe("/reset-password/:token?x");
    expect(loggedPath("/join/INVITECODE")).toBe("/join/:code");
    expect(loggedPath("/api/invites/INVITECODE")).toBe("/api/invites/:code");
  });
  it("masks them in a page's data request too, which keeps its .data and the routes it asked for (single fetch)", () => {
    expect(loggedPath("/join/INVITECODE.data")).toBe("/join/:code.data");
    expect(loggedPath("/reset-password/s3cr3tT0ken.data?_routes=root%2Croutes%2Freset-password.%24token")).toBe(
      "/reset-password/:token.data?_routes=root%2Croutes%2Freset-password.%24token",
    );
    expect(loggedPath("/_root.data?cursor=abc&q=rut")).toBe("/_root.data?cursor=abc&q");
  });
});

describe("the request log on a real HTTP server", () => {
  let server: http.Server;
  let base: string;
  let release: () => void = () => {};
  const log = captureLog();

  beforeAll(async () => {
    // The log is the server's first middleware (node-server.server.ts); here the app follows it directly.
    server = http.createServer((req, res) =>
      requestLog(req, res, () => {
        if (req.url === "/slow") {
          release = () => res.end("late");
          return;
        }
        if (req.url === "/zone") {
          // Models tell times in the reader's zone: the request's cookie, noted at the edge.
          void Promise.resolve().then(() => res.end(readerTimeZone()));
          return;
        }
        // The session code notes the member later, after an await: the notes follow the request.
        void Promise.resolve().then(() => {
          if (req.headers.cookie) noteMember(7);
          res.statusCode = req.method === "POST" ? 201 : 200;
          res.end("ok");
        });
      }),
    );
    trackServer(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    log.restore();
    server.close();
  });

  it("writes one line per request: method, safe path, status, duration, member; never the cookie or body", async () => {
    await fetch(`${base}/api/auth/login?next=%2Fsettings`, {
      method: "POST",
      headers: { Cookie: "__session=SESSIONCOOKIEVALUE", "Content-Type": "application/json" },
      body: JSON.stringify({ username: "buck", password: "PASSWORD-IN-BODY", email: "buck@example.org" }),
    });
    await fetch(`${base}/reset-password/RESETTOKEN123`);
    await new Promise((r) => setTimeout(r, 50));
    const requests = log.lines.filter((l) => l.msg === "request");
    expect(requests).toEqual([
      expect.objectContaining({ method: "POST", path: "/api/auth/login?next", status: 201, member: 7, ms: expect.any(Number) }),
      expect.objectContaining({ method: "GET", path: "/reset-password/:token", status: 200 }),
    ]);
    expect(requests[1]).not.toHaveProperty("member");
    expect(log.raw.join("\n")).not.toMatch(/SESSIONCOOKIEVALUE|PASSWORD-IN-BODY|buck@example|RESETTOKEN123/);
  });

  it("notes the reader's time zone from the tz cookie, for the code that answers (ux-3 U7, U15)", async () => {
    const zoneOf = async (cookie?: string) => (await fetch(`${base}/zone`, { headers: cookie ? { Cookie: cookie } : {} })).text();
    expect(await zoneOf("__session=x; tz=America%2FChicago")).toBe("America/Chicago");
    expect(await zoneOf("tz=Nowhere%2FLand")).toBe("UTC");
    expect(await zoneOf()).toBe("UTC");
  });

  it("counts requests in flight until they are answered", async () => {
    const answer = fetch(`${base}/slow`);
    await new Promise((r) => setTimeout(r, 100));
    expect(requestsInFlight()).toBe(1);
    expect(await whenIdle(50)).toBe(false);
    const idle = whenIdle(2_000);
    release();
    expect(await (await answer).text()).toBe("late");
    expect(await idle).toBe(true);
    expect(requestsInFlight()).toBe(0);
  });

  // Last in this file: draining lasts for the rest of the process.
  it("once draining, a connection whose request was in flight is closed after its answer, never kept for the next request", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sent = new Promise<{ body: string; closed: Promise<void> }>((resolve, reject) => {
      const req = http.get(`${base}/slow`, { agent }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ body, closed }));
      });
      req.on("error", reject);
      let closed: Promise<void> = new Promise(() => {});
      req.on("socket", (socket) => {
        closed = new Promise((done) => socket.once("close", () => done()));
      });
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(requestsInFlight()).toBe(1);
    startDraining(); // SIGTERM arrives while the request is in flight
    release();
    const { body, closed } = await sent;
    expect(body).toBe("late");
    // The server closes it: a client that kept it would send its next request into a stopping process.
    const outcome = await Promise.race([closed.then(() => "closed"), new Promise((r) => setTimeout(() => r("kept open"), 1_000))]);
    expect(outcome).toBe("closed");
    agent.destroy();
  });
});
