/**
 * The audit's memory probe (security-2 N1), as a bench row: `BODIES` members' requests in parallel,
 * each a chunked multipart body whose first part header never ends, up to `MB` each, to the forms
 * that take files. The server's resident memory (VmRSS of its process) is sampled before, all
 * through, and a moment after. Each request stops by itself: at its answer, a cut connection, or
 * its last byte. 127.0.0.1 only.
 */
import fs from "node:fs";
import http from "node:http";

const CHUNK = Buffer.alloc(64 * 1024, "a");
const HEAD = Buffer.from('--xyz\r\nContent-Disposition: form-data; name="title"\r\nX-Pad: ');

export type HostileResult = { startMb: number; peakMb: number; afterMb: number; answers: Array<number | string>; sentMb: number[] };

/** The resident memory of process `pid`, in MB. */
export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** One hostile body to `target`; resolves with the status (or how it ended) and the bytes sent. */
function send(port: number, target: string, cookie: string, maxBytes: number): Promise<{ answer: number | string; sent: number }> {
  return new Promise((resolve) => {
    let sent = 0;
    let settled = false;
    const req = http.request({
      host: "127.0.0.1",
      port,
      path: target,
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=xyz", Cookie: cookie, Origin: `http://127.0.0.1:${port}` },
    });
    const end = (answer: number | string) => {
      if (settled) return;
      settled = true;
      req.destroy();
      resolve({ answer, sent });
    };
    req.on("response", (res) => {
      res.resume();
      end(res.statusCode ?? 0);
    });
    req.on("error", () => end("cut off"));
    const write = () => {
      while (!settled && sent < maxBytes) {
        const chunk = sent === 0 ? HEAD : CHUNK;
        sent += chunk.byteLength;
        if (!req.write(chunk)) return void req.once("drain", write);
      }
      if (!settled) req.end();
    };
    write();
  });
}

export async function hostileMultipart(port: number, pid: number, cookie: string, mb = 600): Promise<HostileResult> {
  const startMb = rssMb(pid);
  let peakMb = startMb;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(pid))), 20);
  try {
    const results = await Promise.all(
      ["/create", "/api/upload", "/settings"].map((target) => send(port, target, cookie, mb * 1024 * 1024)),
    );
    await new Promise((r) => setTimeout(r, 2_000));
    return {
      startMb,
      peakMb,
      afterMb: rssMb(pid),
      answers: results.map((r) => r.answer),
      sentMb: results.map((r) => r.sent / 1024 / 1024),
    };
  } finally {
    clearInterval(sampler);
  }
}
