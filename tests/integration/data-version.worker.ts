/**
 * A second process for tests/integration/validators.test.ts: its own SQLite connection to the same
 * file (DATABASE_PATH from the parent). It prints "ready", waits for a line on stdin, writes one post
 * as the member named on the command line, and prints {"postId": n}.
 *
 *   node --import tsx tests/integration/data-version.worker.ts <userId>
 */
import { createPost } from "~/models/posts/post.server";

const [userId] = process.argv.slice(2);
process.stdout.write("ready\n");
async function write() {
  const post = await createPost(
    { id: Number(userId) },
    { title: "Written by the other process", content: "A write the first process never made.", type: "article" },
    { preview: async () => null },
  );
  process.stdout.write(`${JSON.stringify({ postId: post.id })}\n`);
  process.exit(0);
}
process.stdin.once("data", () => void write());
