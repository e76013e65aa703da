/** A placeholder card shown while the feed loads (SPEC.md §2: three of them). */
export function PostSkeleton() {
  return (
    <div className="card animate-pulse p-5" data-testid="post-skeleton" aria-hidden="true">
      <div className="flex items-center gap-3">
        <div className="h-10 w-10 rounded-full bg-stone-200" />
        <div className="flex-1 space-y-2">
          <div className="h-3 w-1/3 rounded bg-stone-200" />
          <div className="h-3 w-1/4 rounded bg-stone-200" />
        </div>
      </div>
      <div className="mt-4 h-5 w-2/3 rounded bg-stone-200" />
      <div className="mt-3 space-y-2">
        <div className="h-3 rounded bg-stone-200" />
        <div className="h-3 rounded bg-stone-200" />
        <div className="h-3 w-5/6 rounded bg-stone-200" />
      </div>
    </div>
  );
}

export function PostSkeletonList({ count = 3 }: { count?: number }) {
  return (
    <div className="space-y-4" role="status" aria-label="Loading posts">
      {Array.from({ length: count }, (_, i) => (
        <PostSkeleton key={i} />
      ))}
    </div>
  );
}
