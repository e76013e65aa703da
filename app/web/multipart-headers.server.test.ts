import { describe, expect, it } from "vitest";
import { escapePartHeaders, unescapePartHeader } from "./multipart-headers.server";

const BOUNDARY = "----whitetailTest";

function body(parts: Array<{ disposition: string; data: string }>, preamble = ""): string {
  return (
    preamble +
    parts.map((p) => `--${BOUNDARY}\r\nContent-Disposition: ${p.disposition}\r\nContent-Type: image/png\r\n\r\n${p.data}\r\n`).join("") +
    `--${BOUNDARY}--\r\n`
  );
}

/** The text through escapePartHeaders, fed `size` bytes at a time. */
async function escaped(text: string, size: number): Promise<string> {
  const bytes = Buffer.from(text, "utf8");
  let at = 0;
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + size));
      at += size;
    },
  });
  const chunks: Buffer[] = [];
  for await (const chunk of escapePartHeaders(source, BOUNDARY) as unknown as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

describe("escapePartHeaders (security.md L13)", () => {
  const input = body(
    [
      { disposition: 'form-data; name="title"', data: "a=b; c=d stays as typed" },
      { disposition: 'form-data; name="file"; filename="my=photo;1 100%.jpg"', data: `bytes with "=" and ; --${BOUNDARY} inside` },
      { disposition: 'form-data; name="file"; filename="x.png?v=1"', data: "élan" },
    ],
    "preamble\r\n",
  );
  const expected = input
    .replace('filename="my=photo;1 100%.jpg"', 'filename="my%3Dphoto%3B1 100%25.jpg"')
    .replace('filename="x.png?v=1"', 'filename="x.png?v%3D1"');

  it("escapes quoted Content-Disposition values only, however the body is cut into chunks", async () => {
    for (const size of [1, 2, 3, 7, 16, 64, 100_000]) expect(await escaped(input, size)).toBe(expected);
  });

  it("gives the original names back", () => {
    expect(unescapePartHeader("my%3Dphoto%3B1 100%25.jpg")).toBe("my=photo;1 100%.jpg");
    expect(unescapePartHeader("a%253Db.png")).toBe("a%3Db.png");
  });
});
