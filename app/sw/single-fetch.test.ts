import { describe, expect, it } from "vitest";
import { reloadDocumentAnswer, routesOfData } from "./single-fetch";

/** The worker's reading and writing of single fetch answers (./single-fetch.ts); the server's own are read in tests/integration/single-fetch.test.ts. */

describe("routesOfData", () => {
  it("names the routes a saved .data answer holds", () => {
    const text = '[{"_1":2,"_7":8},"root",{"_3":4},"data",{"_5":6},"user",null,"routes/post.$id",{"_3":9},{"_10":11},"post",3]\n';
    expect(routesOfData(text)).toEqual(["root", "routes/post.$id"]);
    expect(routesOfData("[{}]\n")).toEqual([]);
  });

  it("is null for anything else", () => {
    for (const text of ["", "<html></html>", '{"root":{}}', '[["SingleFetchRedirect",1],{}]', '[{"_1":2}]', '[{"x":1},"root"]'])
      expect(routesOfData(text), text).toBeNull();
  });
});

describe("reloadDocumentAnswer", () => {
  it("is Remix's redirect to the page as a document, as its server writes one", async () => {
    const answer = reloadDocumentAnswer("/post/3?sort=new");
    expect(answer.status).toBe(202);
    expect(answer.headers.get("Content-Type")).toBe("text/x-script");
    expect(JSON.parse(await answer.text())).toEqual([
      ["SingleFetchRedirect", 1],
      { _2: 3, _4: 5, _6: 7, _8: 9, _10: 11 },
      "redirect",
      "/post/3?sort=new",
      "status",
      302,
      "revalidate",
      false,
      "reload",
      true,
      "replace",
      false,
    ]);
  });
});
