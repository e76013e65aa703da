import type { LinkMetadata } from "#db/schema";
import type { Actor } from "~/models/user.server";
import type { FeedType, PostInput, PostType, PostUpdateInput, SortOption } from "~/schemas/post";

/** SPEC.md §3 Post author. */
export type PostAuthor = { id: number; username: string; displayName: string; avatar: string | null };

export type UploadedFile = {
  type: "image" | "video" | "audio";
  url: string;
  name: string;
  width?: number;
  height?: number;
  variants?: { width: number; height: number; url: string }[];
};

/** SPEC.md §3 Post. */
export type Post = {
  id: number;
  title: string;
  content: string;
  type: PostType;
  mediaUrl: string | null;
  urlMetadata: LinkMetadata | null;
  tags: string[] | null;
  clubId: number | null;
  createdAt: string;
  author: PostAuthor;
  likes: number;
  commentsCount: number;
  shares: number;
  isLiked: boolean;
  uploadedFiles: UploadedFile[];
};

export type ListFeedQuery = {
  type?: FeedType;
  sortBy?: SortOption;
  search?: string;
  limit?: number;
  cursor?: string;
  following?: boolean;
  authorId?: number;
  clubId?: number;
};

export type FeedPage = { posts: Post[]; nextCursor: string | null };

// Signatures first (the pages are built on them); bodies follow in the next commit.
const pending = (): never => {
  throw new Error("post.server.ts: being implemented");
};

export async function listFeed(_actor: Actor, _query: ListFeedQuery = {}): Promise<FeedPage> {
  return pending();
}
export async function getPost(_actor: Actor, _id: number): Promise<Post> {
  return pending();
}
export async function listTrending(_actor: Actor): Promise<Post[]> {
  return pending();
}
export async function createPost(_actor: Actor, _input: PostInput): Promise<Post> {
  return pending();
}
export async function updatePost(_actor: Actor, _id: number, _input: PostUpdateInput): Promise<Post> {
  return pending();
}
export async function deletePost(_actor: Actor, _id: number): Promise<void> {
  return pending();
}
export async function likePost(_actor: Actor, _id: number): Promise<{ likes: number; isLiked: boolean }> {
  return pending();
}
export async function unlikePost(_actor: Actor, _id: number): Promise<{ likes: number; isLiked: boolean }> {
  return pending();
}
export async function sharePost(_actor: Actor, _id: number): Promise<{ shares: number }> {
  return pending();
}
