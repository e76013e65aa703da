import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type MutableRefObject } from "react";
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_LABEL, UPLOAD_ACCEPT, type UploadedFile } from "~/schemas/media-options";
import { useHydrated } from "~/utils/hydrated";
import { useFileDrop } from "./file-drop";
import { sendResumable, unfinishedUploads, type ResumableUpload } from "~/offline/resumable-send";
import { UploadProgressList, type Progress } from "./upload-progress";
import { showToast } from "~/components/layout/toaster";
import { queuePostWithFiles } from "~/offline/outbox-files-client";

/**
 * SPEC.md §2 / §4 / §8 media upload, inside the post editor's multipart form.
 *
 * Without JavaScript: a plain file input (`files`, several allowed); the create action streams the
 * files through the same checks and storage. Files a failed submission already stored come back as
 * checked boxes named `uploadedFiles` (untick to drop one).
 * With JavaScript: each chosen or dropped file goes to /api/uploads over the resumable tus protocol
 * (offline/resumable-send.ts, docs/decisions/0035-resumable-uploads.md) with progress 0–100, can be
 * cancelled while it uploads and removed afterwards. A dropped connection keeps the row with a
 * Resume button that continues from the last byte the server holds; after a reload, choosing the
 * same file again continues it, and files left unfinished are named so the member knows to. A
 * refusal keeps the row with the server's reason. Finished rows clear one second after every upload
 * has finished; the uploaded list stays until the member removes a file, and travels with the post
 * as hidden `uploadedFiles` inputs.
 * Publish tapped while files upload (`PublishGate`, docs/offline.md): the post waits for its files,
 * says so with a Cancel, and goes by itself when they are in; a dropped link pauses the upload, which
 * continues when the signal returns, and a publish that then finds no signal waits in the outbox
 * with its finished uploads (ADR 0057).
 */

/** The editor asks the widget whether a Publish must wait for files still on their way. */
export type PublishGate = {
  /** True: files are still uploading, so the post will go by itself once they are in (the submit is held). */
  hold(form: HTMLFormElement): boolean;
};

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
  willPublish: (left: number) =>
    `Your post will publish by itself when ${left === 1 ? "the last file finishes" : `${left} files finish`} uploading.`,
  willPublishPaused: "The connection dropped. Your files continue when the signal returns, then your post publishes.",
  waitsOffline: (files: number) =>
    `No signal: your post waits on this phone with ${files === 1 ? "its file" : `its ${files} files`}. They upload and the post publishes when the signal returns.`,
  waitsOfflineTitle: "Waiting for a signal",
  cannotWait: "Cannot keep these files",
  publishCancelled: "Not published: a file could not be uploaded. Remove it or try again, then publish.",
  cancelPublish: "Don't publish yet",
  pausedTitle: "Upload paused",
  paused: (file: string, percent: number) =>
    `The connection dropped while sending ${file} (${percent}% sent). Resume to continue from there.`,
  pausedNote: "Connection lost. Resume continues from where it stopped.",
  resumedNote: "Continuing where the last upload stopped.",
  unfinished: (names: string) =>
    `Not finished before the page was left: ${names}. Choose the same file again to continue where it stopped.`,
} as const;

/** What the browser can tell before sending: too large, or plainly not media. The server decides the rest. */
function refuseEarly(file: File): string | null {
  if (file.size > MAX_UPLOAD_BYTES) return UPLOAD_MESSAGES.tooLarge;
  if (file.type && !/^(image|video|audio)\//.test(file.type)) return UPLOAD_MESSAGES.wrongKind;
  return null;
}

let nextId = 1;

/** A layout effect in the browser; the server renders no effects (and React 18 warns of layout ones there). */
const useBrowserLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/**
 * Files in a plain file input as React removes it (issue 43 item 3): hydration swaps it for the
 * widget's, or useDraft re-creates the whole form, and a file chosen in the moment between
 * useDraft's read and that commit would go with it. The widget that takes its place, in the same
 * commit, takes them (its layout effect runs before the browser handles another event); a
 * microtask later they are gone, so a page left with a file in its plain input hands nothing on.
 */
let leftBehind: File[] = [];
/** Files that reached a plain input after React removed it (the phone's picker was still open). */
const LATE_FILES = "pulse:late-files";

function leaveBehind(input: HTMLInputElement): void {
  const files = Array.from(input.files ?? []);
  if (files.length) {
    leftBehind = files;
    queueMicrotask(() => {
      leftBehind = [];
    });
  }
  // A picker opened on the plain input answers after the input has gone: to the widget on the page.
  input.addEventListener("change", () => {
    const late = Array.from(input.files ?? []);
    if (late.length && !input.isConnected) window.dispatchEvent(new CustomEvent<File[]>(LATE_FILES, { detail: late }));
  });
}

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
  arrivingFiles,
  gate,
  ready = true,
}: {
  /** Field carrying the stored files' URLs (postInputSchema.uploadedFiles). */
  name?: string;
  /** The plain file input's field (no JavaScript): the create action stores its files. */
  fileInputName?: string;
  /** Files already stored by a submission that failed validation. */
  initialFiles?: UploadedFile[];
  /** Files chosen in the plain file input before JavaScript took over: they upload at once. */
  pendingFiles?: File[];
  /** Files handed over after the widget started (a phone's share, ADR 0092): they upload as if chosen here. */
  arrivingFiles?: File[];
  /** Filled in here: the editor's Publish asks it before sending (publish while files upload). */
  gate?: MutableRefObject<PublishGate | null>;
  /**
   * False while the form's draft is still deciding whether to re-create it (useDraft's `settled`):
   * the plain input stays until then, so a file chosen in that moment is not started by a widget
   * about to be replaced (its upload would go with it).
   */
  ready?: boolean;
}) {
  const interactive = useHydrated() && ready;
  const inputId = useId();
  const [uploaded, setUploaded] = useState<UploadedFile[]>(initialFiles);
  const [progress, setProgress] = useState<Progress[]>([]);
  const [unfinished, setUnfinished] = useState<string[]>([]);
  const requests = useRef(new Map<number, ResumableUpload>());
  /** The chosen file of each row still uploading: with no signal at Publish, they wait with the post (ADR 0093). */
  const chosen = useRef(new Map<number, File>());
  const rootRef = useRef<HTMLDivElement | null>(null);
  const uploading = progress.some((p) => p.status === "uploading");

  // SPEC.md §4: finished rows are cleared one second after all uploads complete; a paused or
  // refused row stays until the member resumes or dismisses it.
  useEffect(() => {
    if (!progress.some((p) => p.status === "done") || uploading) return;
    const timer = setTimeout(() => setProgress((list) => list.filter((p) => p.status !== "done")), 1000);
    return () => clearTimeout(timer);
  }, [progress, uploading]);

  // Uploads an earlier page left unfinished (a reload, a crash): named, so the member can pick them again.
  useEffect(() => {
    void unfinishedUploads().then(setUnfinished);
  }, []);

  // Publish tapped while a file is still on its way: the post waits for its files and goes by
  // itself when they are in (the form is sent again, so the uploads travel as hidden inputs).
  const [waitingForm, setWaitingForm] = useState<HTMLFormElement | null>(null);
  const unfinishedCount = progress.filter((p) => p.status === "uploading" || p.status === "paused").length;
  const paused = progress.some((p) => p.status === "paused");
  const refused = progress.some((p) => p.status === "failed");
  const busy = unfinishedCount > 0;
  const busyRef = useRef(busy);
  busyRef.current = busy;
  const progressRef = useRef(progress);
  progressRef.current = progress;
  /**
   * Publish with no signal while files are still to upload: the post waits in the outbox with the
   * files themselves (IndexedDB), and the outbox uploads them and publishes once the signal returns,
   * even if this page is closed meanwhile (ADR 0093). The rows go: the outbox's note shows the post.
   */
  const waitOffline = useCallback(async (form: HTMLFormElement) => {
    const rows = progressRef.current.filter((p) => p.status === "uploading" || p.status === "paused");
    const files = rows.flatMap((row) => chosen.current.get(row.id) ?? []);
    const result = await queuePostWithFiles(form, files, { maxFileBytes: MAX_UPLOAD_BYTES, maxFileLabel: MAX_UPLOAD_LABEL });
    if ("refused" in result) {
      showToast({ title: UPLOAD_MESSAGES.cannotWait, description: result.refused, type: "error" });
      return;
    }
    if (!result.queued) {
      // Nowhere to keep them (no IndexedDB): the page waits for the signal as before.
      setWaitingForm(form);
      return;
    }
    for (const row of rows) {
      requests.current.get(row.id)?.stop();
      requests.current.delete(row.id);
      chosen.current.delete(row.id);
    }
    const ids = new Set(rows.map((row) => row.id));
    setProgress((list) => list.filter((p) => !ids.has(p.id)));
    showToast({ title: UPLOAD_MESSAGES.waitsOfflineTitle, description: UPLOAD_MESSAGES.waitsOffline(files.length), type: "info" });
  }, []);
  useEffect(() => {
    if (!gate) return;
    gate.current = {
      hold: (form) => {
        if (!busyRef.current) return false;
        if (navigator.onLine === false) void waitOffline(form);
        else setWaitingForm(form);
        return true;
      },
    };
    return () => {
      gate.current = null;
    };
  }, [gate, waitOffline]);
  useEffect(() => {
    if (!waitingForm) return;
    if (refused) {
      setWaitingForm(null);
      showToast({ title: UPLOAD_MESSAGES.failedTitle, description: UPLOAD_MESSAGES.publishCancelled, type: "error" });
    } else if (!busy) {
      setWaitingForm(null);
      waitingForm.requestSubmit();
    }
  }, [waitingForm, busy, refused]);
  // While the post waits, a paused upload (the link dropped) continues by itself when the signal returns.
  useEffect(() => {
    if (!waitingForm || !paused) return;
    const resumeAll = () => {
      for (const p of progress) if (p.status === "paused") resume(p.id);
    };
    window.addEventListener("online", resumeAll);
    return () => window.removeEventListener("online", resumeAll);
  });

  // Leaving the page stops what is still uploading; the server keeps what arrived, to resume later.
  useEffect(() => {
    const open = requests.current;
    return () => {
      for (const upload of open.values()) upload.stop();
    };
  }, []);

  const update = (id: number, patch: Partial<Progress>) => setProgress((list) => list.map((p) => (p.id === id ? { ...p, ...patch } : p)));

  const start = useCallback(async (files: File[]) => {
    for (const file of files) {
      const early = refuseEarly(file);
      if (early) {
        showToast({ title: UPLOAD_MESSAGES.failedTitle, description: UPLOAD_MESSAGES.failed(file.name, early), type: "error" });
        continue;
      }
      const id = nextId++;
      setProgress((list) => [...list, { id, name: file.name, progress: 0, status: "uploading" }]);
      chosen.current.set(id, file);
      setUnfinished((names) => names.filter((n) => n !== file.name));
      const upload = sendResumable(file, file.name, {
        onProgress: (percent) => update(id, { progress: percent }),
        onDone: (stored) => {
          requests.current.delete(id);
          chosen.current.delete(id);
          update(id, { progress: 100, status: "done", note: undefined });
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
        },
        onInterrupted: (percent) => {
          update(id, { status: "paused", note: UPLOAD_MESSAGES.pausedNote });
          showToast({ title: UPLOAD_MESSAGES.pausedTitle, description: UPLOAD_MESSAGES.paused(file.name, percent), type: "error" });
        },
        onRefused: (reason) => {
          requests.current.delete(id);
          chosen.current.delete(id);
          update(id, { status: "failed", note: reason });
          showToast({ title: UPLOAD_MESSAGES.failedTitle, description: UPLOAD_MESSAGES.failed(file.name, reason), type: "error" });
        },
      });
      requests.current.set(id, upload);
      void upload.started.then(({ resumed }) => {
        if (resumed) update(id, { note: UPLOAD_MESSAGES.resumedNote });
      });
    }
  }, []);

  const resume = (id: number) => {
    update(id, { status: "uploading", note: undefined });
    requests.current.get(id)?.resume();
  };
  const cancel = (id: number) => {
    void requests.current.get(id)?.cancel();
    requests.current.delete(id);
    chosen.current.delete(id);
    setProgress((list) => list.filter((p) => p.id !== id));
  };
  const drop = useFileDrop((files) => void start(files));

  // The plain input, remembered until React removes it (then its files are left for the widget).
  const plainInput = useRef<HTMLInputElement | null>(null);
  const plainInputRef = useCallback((el: HTMLInputElement | null) => {
    if (el) plainInput.current = el;
    else if (plainInput.current) leaveBehind(plainInput.current);
  }, []);

  // Chosen before hydration (the plain input is gone now): nothing the member picked is dropped.
  const pending = useRef(pendingFiles);
  // Chosen after useDraft read the form, as React replaced the plain input (not among `pendingFiles`),
  // or after it was gone.
  useBrowserLayoutEffect(() => {
    if (!interactive) return;
    const late = leftBehind.filter((file) => !pending.current.includes(file));
    leftBehind = [];
    if (late.length) void start(late);
    const arrived = (event: Event) => void start((event as CustomEvent<File[]>).detail);
    window.addEventListener(LATE_FILES, arrived);
    return () => window.removeEventListener(LATE_FILES, arrived);
  }, [interactive, start]);
  useEffect(() => {
    if (pending.current.length) void start(pending.current);
    pending.current = [];
  }, [start]);
  // Handed over later (a phone's share): each list once.
  const arrived = useRef<File[] | undefined>(undefined);
  useEffect(() => {
    if (!arrivingFiles?.length || arrived.current === arrivingFiles) return;
    arrived.current = arrivingFiles;
    void start(arrivingFiles);
  }, [arrivingFiles, start]);

  if (!interactive) {
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
          className="block w-full text-sm text-stone-700 max-sm:min-h-11 file:mr-3 file:rounded-md file:border-0 file:bg-bark-100 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-bark-800"
          aria-describedby={`${inputId}-hint`}
          data-testid="media-file-input"
          ref={plainInputRef}
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

      {unfinished.length ? (
        <p className="mt-2 text-xs text-stone-600" data-testid="unfinished-uploads">
          {UPLOAD_MESSAGES.unfinished(unfinished.join(", "))}
        </p>
      ) : null}

      {waitingForm ? (
        <div
          role="status"
          className="mt-3 flex flex-wrap items-center justify-between gap-2 rounded-md border border-field-500 bg-stone-50 p-3 text-sm text-bark-900"
          data-testid="publish-waiting"
        >
          <span>{paused ? UPLOAD_MESSAGES.willPublishPaused : UPLOAD_MESSAGES.willPublish(unfinishedCount)}</span>
          <button type="button" className="btn-secondary px-2 py-1 text-xs" onClick={() => setWaitingForm(null)}>
            {UPLOAD_MESSAGES.cancelPublish}
          </button>
        </div>
      ) : null}

      <UploadProgressList
        rows={progress}
        onCancel={cancel}
        onResume={resume}
        onDismiss={(id) => setProgress((list) => list.filter((p) => p.id !== id))}
      />

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
