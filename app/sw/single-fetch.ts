/**
 * What the worker reads and writes of Remix's single fetch answers (docs/decisions/0079-single-
 * fetch.md): a page's data request (`/post/3.data`) is answered with a turbo-stream, one line of
 * JSON, more lines only for data sent later (none here), whose first value holds each route's data
 * under its id. No worker globals: tested in Node.
 */

/** The content type Remix gives a `.data` answer. */
const DATA_CONTENT_TYPE = "text/x-script";

/**
 * The ids of the routes whose data (or error) a saved `.data` answer holds, or null when it is not
 * one. The first line is a flat list: item 0 is the answer's object, `{"_1":2,…}`, each key `_N`
 * naming the list's item N, the route's id.
 */
export function routesOfData(text: string): string[] | null {
  const first = text.split("\n", 1)[0] ?? "";
  let list: unknown;
  try {
    list = JSON.parse(first);
  } catch {
    return null;
  }
  if (!Array.isArray(list) || typeof list[0] !== "object" || list[0] === null || Array.isArray(list[0])) return null;
  const ids: string[] = [];
  for (const key of Object.keys(list[0] as object)) {
    const id: unknown = /^_\d+$/.test(key) ? list[Number(key.slice(1))] : undefined;
    if (typeof id !== "string") return null;
    ids.push(id);
  }
  return ids;
}

/**
 * A data request's answer that sends the browser to `page` as a document: Remix's redirect, as the
 * server writes one (status 202, `{redirect, status, revalidate, reload, replace}` under its
 * `SingleFetchRedirect` type), with `reload` so the router loads the document instead of its data.
 * The member gets the page's saved copy or the offline page with a "Try again" for that address,
 * not an error in place of the page they were reading.
 */
export function reloadDocumentAnswer(page: string): Response {
  const list = singleFetchRedirect({ redirect: page, status: 302, revalidate: false, reload: true, replace: false });
  return new Response(`${JSON.stringify(list)}\n`, {
    status: 202,
    headers: { "Content-Type": DATA_CONTENT_TYPE, "Cache-Control": "no-store" },
  });
}

/**
 * A single-fetch redirect as React Router's server writes it (turbo-stream, flattened): item 0 the
 * type, item 1 the redirect's object, whose keys `_N` name the field's name at N and its value at N + 1.
 */
export function singleFetchRedirect(redirect: {
  redirect: string;
  status: number;
  revalidate: boolean;
  reload: boolean;
  replace: boolean;
}): unknown[] {
  const list: unknown[] = [["SingleFetchRedirect", 1], {}];
  const fields: Record<string, number> = {};
  for (const [name, value] of Object.entries(redirect)) {
    fields[`_${list.length}`] = list.length + 1;
    list.push(name, value);
  }
  list[1] = fields;
  return list;
}
