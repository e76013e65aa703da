import { useFetcher } from "react-router";
import { useEffect, useId, useRef } from "react";
import { useHydrated } from "~/utils/hydrated";

/**
 * The avatar upload (profile Edit dialog and settings' 'Change Avatar'): a multipart form posting an
 * image in the `avatar` field to the page's own action. Without JavaScript it is a plain file input
 * and an Upload button. With it, a camera button opens the picker and the choice uploads at once;
 * the page's action answers with a redirect and a toast either way.
 */
export function AvatarUpload({
  action,
  returnTo,
  label,
  variant = "camera",
}: {
  action: string;
  returnTo: string;
  label: string;
  variant?: "camera" | "button";
}) {
  const hydrated = useHydrated();
  const fetcher = useFetcher();
  const id = useId();
  const busy = fetcher.state !== "idle";
  const input = useRef<HTMLInputElement>(null);
  const upload = (field: HTMLInputElement | null) => {
    if (field?.files?.length) void fetcher.submit(field.form);
  };
  // A photo chosen in the plain form before this part's code arrived is sent now: the input is the
  // same element in both forms, so the choice is still in it.
  useEffect(() => {
    if (hydrated) upload(input.current);
    // Once, when the part comes alive.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated]);

  // Both forms keep the file input at the same place in the tree, so React keeps the element (and
  // any file already chosen) when the plain form becomes the enhanced one.
  return (
    <fetcher.Form method="post" action={action} encType="multipart/form-data" data-testid="avatar-upload">
      <input type="hidden" name="returnTo" value={returnTo} />
      <div className={hydrated ? "contents" : "flex flex-wrap items-end gap-2"}>
        <div className={hydrated ? "contents" : undefined}>
          {hydrated ? null : (
            <label htmlFor={id} className="label">
              {label}
            </label>
          )}
          <input
            ref={input}
            id={id}
            type="file"
            name="avatar"
            accept="image/*"
            required={!hydrated}
            className={hydrated ? "peer sr-only" : "block text-sm max-sm:min-h-11"}
            disabled={busy}
            onChange={hydrated ? (event) => upload(event.currentTarget) : undefined}
          />
          {hydrated ? (
            <label
              htmlFor={id}
              title={label}
              className={`cursor-pointer peer-focus-visible:ring-2 peer-focus-visible:ring-blaze-500 ${
                variant === "camera"
                  ? "inline-flex h-9 w-9 items-center justify-center rounded-full border-2 border-white bg-bark-900 text-white shadow hover:bg-bark-800"
                  : "btn-secondary"
              }`}
            >
              {variant === "camera" ? (
                <>
                  <CameraIcon />
                  <span className="sr-only">{busy ? "Uploading..." : label}</span>
                </>
              ) : busy ? (
                "Uploading..."
              ) : (
                label
              )}
            </label>
          ) : null}
        </div>
        {hydrated ? null : (
          <button type="submit" className="btn-secondary">
            Upload
          </button>
        )}
      </div>
    </fetcher.Form>
  );
}

/** 'Remove photo': a plain form (works without JavaScript); the action answers with a redirect and a toast. */
export function RemoveAvatar({ action, returnTo }: { action: string; returnTo: string }) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" action={action}>
      <input type="hidden" name="returnTo" value={returnTo} />
      <button type="submit" name="intent" value="remove-avatar" className="btn-ghost" disabled={fetcher.state !== "idle"}>
        {fetcher.state !== "idle" ? "Removing..." : "Remove photo"}
      </button>
    </fetcher.Form>
  );
}

function CameraIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-4 w-4" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
      <path strokeLinejoin="round" d="M4 8h3l2-3h6l2 3h3v11H4z" />
      <circle cx="12" cy="13" r="3.5" />
    </svg>
  );
}
