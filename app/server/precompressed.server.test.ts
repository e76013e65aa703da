import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveSite } from "#tests/fixtures/site";
import { precompressDir } from "./precompressed.server";

/** The raw exchange: status, headers and the bytes as sent (no decoding by the client). */
function get(port: number, urlPath: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, path: urlPath, method, headers: { Host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Real minified code (React's), as a build's framework file is. */
const script = fs.readFileSync(path.join(process.cwd(), "node_modules/react/cjs/react.production.min.js"));
const style = Buffer.from(`.card{color:#333}\n`.repeat(200));
const tiny = Buffer.from("export const a = 1;\n");
/** A build's small shared file (an option list): under a kilobyte, half of it as brotli. */
const small = Buffer.from(
  `const o=["sighting","scrape","rub","harvest"],l={sighting:"Sighting",scrape:"Scrape",rub:"Rub",harvest:"Harvest"};` +
    `export function label(k){return l[k]??k}export function pick(v){return o.includes(v)?v:null}` +
    `export const phases=["pre-rut","seeking","chasing","breeding","post-rut"].map(p=>({value:p,label:p.replace("-"," ")}));` +
    `export const counts=[0,1,2,3,4,5,6,7,8,9,10].map(n=>({value:String(n),label:n===1?"1 deer":n+" deer"}));\n`,
);

let dir: string;
let site: Awaited<ReturnType<typeof serveSite>>;
let written: ReturnType<typeof precompressDir>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "assets-"));
  fs.mkdirSync(path.join(dir, "routes"));
  fs.writeFileSync(path.join(dir, "framework-abc.js"), script);
  fs.writeFileSync(path.join(dir, "routes", "_index-def.js"), script);
  fs.writeFileSync(path.join(dir, "tailwind-123.css"), style);
  fs.writeFileSync(path.join(dir, "tiny-456.js"), tiny);
  fs.writeFileSync(path.join(dir, "small-321.js"), small);
  fs.writeFileSync(path.join(dir, "icon-789.png"), Buffer.alloc(4096, 7));
  written = precompressDir(dir);
  site = await serveSite(async () => new Response("the app", { status: 404 }), { assets: { publicPath: "/assets", dir } });
});

afterAll(async () => {
  await site.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("precompressed assets (build step)", () => {
  it("writes a brotli and a gzip copy of each text asset they make smaller by more than their headers, each decoding to the asset", () => {
    expect(small.length).toBeLessThan(1024);
    expect(written.map((w) => w.file).sort()).toEqual(["framework-abc.js", "routes/_index-def.js", "small-321.js", "tailwind-123.css"]);
    for (const { file } of written) {
      const original = fs.readFileSync(path.join(dir, file));
      expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, `${file}.br`)))).toEqual(original);
      expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, `${file}.gz`)))).toEqual(original);
    }
    expect(fs.existsSync(path.join(dir, "tiny-456.js.br"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "icon-789.png.br"))).toBe(false);
  });

  it("compresses harder than the server does on the fly (brotli 11 against the compression middleware's 4)", () => {
    const quick = zlib.brotliCompressSync(script, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } });
    expect(written.find((w) => w.file === "framework-abc.js")!.br).toBeLessThan(quick.length);
  });
});

describe("precompressed assets (server)", () => {
  it("sends the brotli copy to a browser that takes brotli, typed as the asset, with its own length and validator", async () => {
    const res = await get(site.port, "/assets/framework-abc.js", { "Accept-Encoding": "gzip, deflate, br" });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(res.headers["vary"]).toMatch(/Accept-Encoding/i);
    expect(res.headers["cache-control"]).toContain("immutable");
    expect(Number(res.headers["content-length"])).toBe(fs.statSync(path.join(dir, "framework-abc.js.br")).size);
    expect(zlib.brotliDecompressSync(res.body)).toEqual(script);
    const identity = await get(site.port, "/assets/framework-abc.js", { "Accept-Encoding": "identity" });
    expect(identity.headers.etag).not.toBe(res.headers.etag);
  });

  it("sends gzip's copy where the browser takes gzip only, and the asset itself where it takes neither", async () => {
    const gz = await get(site.port, "/assets/routes/_index-def.js", { "Accept-Encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.body)).toEqual(script);
    const plain = await get(site.port, "/assets/routes/_index-def.js", { "Accept-Encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toEqual(script);
    const refused = await get(site.port, "/assets/tailwind-123.css", { "Accept-Encoding": "br;q=0, gzip" });
    expect(refused.headers["content-encoding"]).toBe("gzip");
    expect(refused.headers["content-type"]).toMatch(/^text\/css/);
  });

  it("answers HEAD with the variant's head and no body", async () => {
    const res = await get(site.port, "/assets/framework-abc.js", { "Accept-Encoding": "br" }, "HEAD");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.body.length).toBe(0);
  });

  it("serves an asset without copies as before, and never a copy by a crafted path", async () => {
    const small = await get(site.port, "/assets/tiny-456.js", { "Accept-Encoding": "br" });
    expect(small.status).toBe(200);
    expect(small.body).toEqual(tiny);
    for (const crafted of ["/assets/..%2fframework-abc.js", "/assets/%2e%2e/framework-abc.js", "/assets/framework-abc.js%00"]) {
      const res = await get(site.port, crafted, { "Accept-Encoding": "br" });
      expect(res.status, crafted).not.toBe(200);
      expect(res.body.length, crafted).toBeLessThan(100);
    }
  });
});
