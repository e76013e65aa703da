import { useCallback, useEffect, useId, useRef, useState } from "react";
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_LABEL, UPLOAD_ACCEPT, type UploadedFile } from "~/schemas/media-options";
import { useHydrated } from "~/utils/hydrated";
import { useFileDrop } from "./file-drop";
import { showToast } from "~/components/layout/toaster";

/**
 * SPEC.md §2 / §4 / §8 media upload, inside the post editor's multipart form.
 *
 * Without JavaScript: a plain file input (`files`, several allowed); the create action streams the
 * files through the same checks and storage. Files a failed submission already stored come back as
 * checked boxes named `uploadedFiles` (untick to drop one).
 * With JavaScript: each chosen or dropped file goes to /api/upload on its own XMLHttpRequest with progress
 * 0–100, can be cancelled while it uploads and removed afterwards; the progress list clears one
 * second after every upload has finished; the uploaded list stays until the member removes a file,
 * and travels with the post as hidden `uploadedFiles` inputs.
 */

type Progress = { id: number; name: string; progress: number; status: "uploading" | "done" | "failed" };

export const UPLOAD_MESSAGES = {
  failedTitle: "Upload Failed",
  failed: (file: string, reason: string) => `Failed to upload ${file}: ${reason}`,
  cancelled: "Upload cancelled",
  badResponse: "Failed to parse response",
  errorTitle: "Upload Error",
  error: "An error occurred during the upload process",
  unauthorized: "Authentication required. Please log in again.",
  tooLarge: `File is too large. The limit is ${MAX_UPLOAD_LABEL} per file.`,
  wrongKind: "Only images, videos and audio files can be uploaded.",
  stillUploading: "Please wait until your files finish uploading.",
} as const;

/** A failure of the network itself (not an answer from the server). */
class NetworkError extends Error {}

/** One file to /api/upload with progress; resolves with the stored file, rejects with a reason. */
function sendFile(file: File, onProgress: (percent: number) => void, onXhr: (xhr: XMLHttpRequest) => void): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    onXhr(xhr);
    xhr.open("POST", "/api/upload");
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    });
    xhr.addEventListener("load", () => {
      if (xhr.status === 401) return reject(new Error(UPLOAD_MESSAGES.unauthorized));
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        return reject(
          new Error(xhr.status >= 200 && xhr.status < 300 ? UPLOAD_MESSAGES.badResponse : xhr.statusText || `HTTP ${xhr.status}`),
        );
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const file = body as UploadedFile;
        if (!file || typeof file.url !== "string") return reject(new Error(UPLOAD_MESSAGES.badResponse));
        onProgress(100);
        return resolve(file);
      }
      const reason = (body as { error?: unknown })?.error;
      reject(new Error(typeof reason === "string" && reason ? reason : xhr.statusText || `HTTP ${xhr.status}`));
    });
    xhr.addEventListener("error", () => reject(new NetworkError(UPLOAD_MESSAGES.error)));
    xhr.addEventListener("abort", () => reject(new Error(UPLOAD_MESSAGES.cancelled)));
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
}

/** What the browser can tell before sending: too large, or plainly not media. The server decides the rest. */
function refuseEarly(file: File): string | null {
  if (file.size > MAX_UPLOAD_BYTES) return UPLOAD_MESSAGES.tooLarge;
  if (file.type && !/^(image|video|audio)\//.test(file.type)) return UPLOAD_MESSAGES.wrongKind;
  return null;
}

let nextId = 1;

/**
 * The uploads a local draft kept (useDraft reads each stored file's JSON from `data-draft`): only
 * entries that still look like a stored file of ours come back.
 */
export function draftUploads(kept: string[] | undefined): UploadedFile[] {
  const files: UploadedFile[] = [];
  for (const raw of kept ?? []) {
    try {
      const file = JSON.parse(raw) as UploadedFile;
      if (file && typeof file.url === "string" && file.url.startsWith("/") && ["image", "video", "audio"].includes(file.type))
        files.push(file);
    } catch {
      // a URL alone (an older draft) is not enough to show the file again
    }
  }
  return files;
}

export function MediaUpload({
  name = "uploadedFiles",
  fileInputName = "files",
  initialFiles = [],
  pendingFiles = [],
}: {
  /** Field carrying the stored files' URLs (postInputSchema.uploadedFiles). */
  name?: string;
  /** The plain file input's field (no JavaScript): the create action stores its files. */
  fileInputName?: string;
  /** Files already stored by a submission that failed validation. */
  initialFiles?: UploadedFile[];
  /** Files chosen in the plain file input before JavaScript took over: they upload at once. */
  pendingFiles?: File[];
}) {
  const hydrated = useHydrated();
  const inputId = useId();
  const [uploaded, setUploaded] = useState<UploadedFile[]>(initialFiles);
  const [progress, setProgress] = useState<Progress[]>([]);
  const requests = useRef(new Map<number, XMLHttpRequest>());
  const rootRef = useRef<HTMLDivElement | null>(null);
  const uploading = progress.some((p) => p.status === "uploading");

  // SPEC.md §4: the progress list is cleared one second after all uploads complete.
  useEffect(() => {
    if (progress.length === 0 || uploading) return;
    const timer = setTimeout(() => setProgress([]), 1000);
    return () => clearTimeout(timer);
  }, [progress, uploading]);

  // Publishing while a file is still on its way would leave it behind: hold the form until done.
  useEffect(() => {
    const form = rootRef.current?.closest("form");
    if (!form || !uploading) return;
    const hold = (event: Event) => {
      event.preventDefault();
      event.stopImmediatePropagation();
      showToast({ title: "Uploads in progress", description: UPLOAD_MESSAGES.stillUploading, type: "info" });
    };
    form.addEventListener("submit", hold, true);
    return () => form.removeEventListener("submit", hold, true);
  }, [uploading]);

  // Leaving the page cancels what is still uploading.
  useEffect(() => {
    const open = requests.current;
    return () => {
      for (const xhr of open.values()) xhr.abort();
    };
  }, []);

  const update = (id: number, patch: Partial<Progress>) => setProgress((list) => list.map((p) => (p.id === id ? { ...p, ...patch } : p)));

  const start = useCallback(async (files: File[]) => {
    const jobs = files.map(async (file) => {
      const early = refuseEarly(file);
      if (early) {
        showToast({ title: UPLOAD_MESSAGES.failedTitle, description: UPLOAD_MESSAGES.failed(file.name, early), type: "error" });
        return;
      }
      const id = nextId++;
      setProgress((list) => [...list, { id, name: file.name, progress: 0, status: "uploading" }]);
      try {
        const stored = await sendFile(
          file,
          (percent) => update(id, { progress: percent }),
          (xhr) => requests.current.set(id, xhr),
        );
        update(id, { progress: 100, status: "done" });
        setUploaded((list) => [
          ...list,
          {
            type: stored.type,
            url: stored.url,
            name: stored.name ?? file.name,
            width: stored.width,
            height: stored.height,
            variants: stored.variants,
          },
        ]);
      } catch (error) {
        update(id, { status: "failed" });
        if (error instanceof NetworkError) {
          showToast({ title: UPLOAD_MESSAGES.errorTitle, description: UPLOAD_MESSAGES.error, type: "error" });
        } else {
          const reason = error instanceof Error ? error.message : String(error);
          showToast({ title: UPLOAD_MESSAGES.failedTitle, description: UPLOAD_MESSAGES.failed(file.name, reason), type: "error" });
        }
      } finally {
        requests.current.delete(id);
      }
    });
    try {
      await Promise.all(jobs);
    } catch {
      showToast({ title: UPLOAD_MESSAGES.errorTitle, description: UPLOAD_MESSAGES.error, type: "error" });
    }
  }, []);
  const drop = useFileDrop((files) => void start(files));

  // Chosen before hydration (the plain input is gone now): nothing the member picked is dropped.
  const pending = useRef(pendingFiles);
  useEffect(() => {
    if (pending.current.length) void start(pending.current);
    pending.current = [];
  }, [start]);

  if (!hydrated) {
    return (
      <div ref={rootRef}>
        <label htmlFor={inputId} className="label">
          Media (optional)
        </label>
        {initialFiles.length ? (
          <ul className="mb-2 space-y-1" aria-label="Uploaded files">
            {initialFiles.map((file) => (
              <li key={file.url}>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    name={name}
                    value={file.url}
                    data-draft={JSON.stringify(file)}
                    defaultChecked
                    className="h-4 w-4 accent-blaze-500"
                  />
                  <span className="truncate">{file.name}</span>
                  <span className="text-stone-500">(uploaded; untick to remove)</span>
                </label>
              </li>
            ))}
          </ul>
        ) : null}
        <input
          id={inputId}
          type="file"
          name={fileInputName}
          multiple
          accept={UPLOAD_ACCEPT}
          className="block w-full text-sm text-stone-700 file:mr-3 file:rounded-md file:border-0 file:bg-bark-100 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-bark-800"
          aria-describedby={`${inputId}-hint`}
          data-testid="media-file-input"
        />
        <p id={`${inputId}-hint`} className="mt-1 text-xs text-stone-500">
          Images, videos and audio, up to {MAX_UPLOAD_LABEL} each. They upload when you publish.
        </p>
      </div>
    );
  }

  return (
    <div ref={rootRef} data-testid="media-upload">
      <span className="label" id={`${inputId}-label`}>
        Media (optional)
      </span>
      <label
        htmlFor={inputId}
        {...drop.zone}
        data-dragging={drop.over || undefined}
        data-testid="drop-zone"
        className={`flex cursor-pointer flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed p-5 text-center text-sm text-stone-600 hover:border-field-500 focus-within:border-blaze-500 ${
          drop.over ? "border-blaze-500 bg-blaze-500/5" : "border-stone-300"
        }`}
      >
        <span className="font-semibold text-bark-800">{drop.over ? "Drop to upload" : "Add images, videos or audio"}</span>
        <span className="text-xs text-stone-500">Drop files here or choose them · up to {MAX_UPLOAD_LABEL} each</span>
        <input
          id={inputId}
          type="file"
          multiple
          accept={UPLOAD_ACCEPT}
          className="sr-only"
          aria-labelledby={`${inputId}-label`}
          data-testid="media-file-input"
          onChange={(event) => {
            const files = Array.from(event.currentTarget.files ?? []);
            event.currentTarget.value = "";
            if (files.length) void start(files);
          }}
        />
      </label>

      {progress.length ? (
        <ul className="mt-3 space-y-2" aria-label="Upload progress" data-testid="upload-progress">
          {progress.map((p) => (
            <li key={p.id} className="rounded-md border border-stone-200 p-2 text-sm">
              <div className="flex items-center justify-between gap-2">
                <span className="truncate">{p.name}</span>
                <span className="flex shrink-0 items-center gap-2 tabular-nums text-stone-600">
                  {p.status === "failed" ? "Failed" : `${p.progress}%`}
                  {p.status === "uploading" ? (
                    <button
                      type="button"
                      className="rounded px-1 text-stone-500 hover:bg-stone-100 hover:text-stone-800"
                      onClick={() => requests.current.get(p.id)?.abort()}
                      aria-label={`Cancel upload of ${p.name}`}
                    >
                      ×
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
                  className={`h-full transition-[width] ${p.status === "failed" ? "bg-red-500" : "bg-field-500"}`}
                  style={{ width: `${p.progress}%` }}
                />
              </div>
            </li>
          ))}
        </ul>
      ) : null}

      {uploaded.length ? (
        <ul className="mt-3 grid gap-2 sm:grid-cols-2" aria-label="Uploaded files" data-testid="uploaded-files">
          {uploaded.map((file) => (
            <li key={file.url} className="flex items-center gap-3 rounded-md border border-stone-200 p-2">
              <input type="hidden" name={name} value={file.url} data-draft={JSON.stringify(file)} />
              <Thumbnail file={file} />
              <span className="min-w-0 flex-1 truncate text-sm">{file.name}</span>
              <button
                type="button"
                className="btn-ghost px-2 py-1 text-xs"
                onClick={() => setUploaded((list) => list.filter((f) => f.url !== file.url))}
                aria-label={`Remove ${file.name}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function Thumbnail({ file }: { file: UploadedFile }) {
  if (file.type === "image") {
    const small = file.variants?.[0]?.url ?? file.url;
    return <img src={small} alt="" width={48} height={48} className="h-12 w-12 shrink-0 rounded object-cover" />;
  }
  return (
    <span
      className="flex h-12 w-12 shrink-0 items-center justify-center rounded bg-bark-100 text-xs font-semibold uppercase text-bark-700"
      aria-hidden="true"
    >
      {file.type === "video" ? "Video" : "Audio"}
    </span>
  );
}
