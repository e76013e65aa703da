import type { Actor } from "~/models/user.server";
import type { CommentInput } from "~/schemas/post";
import type { PostAuthor } from "./post.server";

/** SPEC.md §3 Comment. */
export type Comment = { id: number; content: string; createdAt: string; author: PostAuthor };

// Signatures first (the pages are built on them); bodies follow in the next commit.
const pending = (): never => {
  throw new Error("comment.server.ts: being implemented");
};

export async function listComments(_actor: Actor, _postId: number): Promise<Comment[]> {
  return pending();
}
export async function addComment(_actor: Actor, _postId: number, _input: CommentInput): Promise<Comment> {
  return pending();
}
export async function deleteComment(_actor: Actor, _commentId: number): Promise<void> {
  return pending();
}
