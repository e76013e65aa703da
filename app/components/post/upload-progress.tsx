/**
 * The upload widget's progress rows (media-upload.tsx): a bar per file with its percentage, a
 * Cancel while it uploads, Resume when the connection dropped, and the server's reason with Dismiss
 * when it refused the file.
 */

export type Progress = {
  id: number;
  name: string;
  progress: number;
  status: "uploading" | "done" | "failed" | "paused";
  /** What the row says under the bar: the refusal's reason, the lost connection, a resumed upload. */
  note?: string;
};

export function UploadProgressList({
  rows,
  onCancel,
  onResume,
  onDismiss,
}: {
  rows: Progress[];
  onCancel(id: number): void;
  onResume(id: number): void;
  onDismiss(id: number): void;
}) {
  if (!rows.length) return null;
  return (
    <ul className="mt-3 space-y-2" aria-label="Upload progress" data-testid="upload-progress">
      {rows.map((p) => (
        <li key={p.id} className="rounded-md border border-stone-200 p-2 text-sm" data-status={p.status}>
          <div className="flex items-center justify-between gap-2">
            <span className="truncate">{p.name}</span>
            <span className="flex shrink-0 items-center gap-2 tabular-nums text-stone-600">
              {p.status === "failed" ? "Failed" : p.status === "paused" ? `Paused at ${p.progress}%` : `${p.progress}%`}
              {p.status === "paused" ? (
                <button
                  type="button"
                  className="btn-secondary px-2 py-1 text-xs"
                  onClick={() => onResume(p.id)}
                  aria-label={`Resume upload of ${p.name}`}
                >
                  Resume
                </button>
              ) : null}
              {p.status === "uploading" || p.status === "paused" ? (
                <button
                  type="button"
                  className="rounded px-1 text-stone-500 hover:bg-stone-100 hover:text-stone-800"
                  onClick={() => onCancel(p.id)}
                  aria-label={`Cancel upload of ${p.name}`}
                >
                  ×
                </button>
              ) : null}
              {p.status === "failed" ? (
                <button
                  type="button"
                  className="btn-ghost px-2 py-1 text-xs"
                  onClick={() => onDismiss(p.id)}
                  aria-label={`Dismiss ${p.name}`}
                >
                  Dismiss
                </button>
              ) : null}
            </span>
          </div>
          <div
            role="progressbar"
            aria-label={`Uploading ${p.name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={p.progress}
            className="mt-1 h-1.5 overflow-hidden rounded-full bg-stone-200"
          >
            <div
              className={`h-full transition-[width] ${p.status === "failed" ? "bg-red-500" : p.status === "paused" ? "bg-amber-500" : "bg-field-500"}`}
              style={{ width: `${p.progress}%` }}
            />
          </div>
          {p.note ? (
            <p
              className={`mt-1 text-xs ${p.status === "failed" ? "text-red-700" : "text-stone-600"}`}
              role={p.status === "uploading" ? undefined : "status"}
            >
              {p.note}
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
