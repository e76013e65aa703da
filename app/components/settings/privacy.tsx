import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "react-router";
import { useEffect } from "react";
import { Field, FormAlert } from "~/components/ui/field";
import { TitledSection } from "~/components/ui/titled-section";
import type { OwnedClubFate } from "~/schemas/shapes";
import { useBrowserValidation } from "~/utils/browser-validation";
import { CONSTRAINTS } from "~/schemas/constraints";
import { forgetMemberOnDevice } from "~/offline/forget-member";
import { useIsPending } from "~/utils/remix";

const ACTION = "/settings?tab=privacy";

/**
 * Settings › Privacy: "Download my data" and "Delete my account" (CONTRACT.md §6,
 * docs/decisions/0039-a-members-own-data.md). Both are plain forms: the download is a GET of
 * /api/auth/export, which the browser saves as a file and stays on the page; the deletion posts here
 * (POST, redirect home, GET), enhanced with JavaScript.
 */
export function PrivacySettings({
  clubs,
  result,
  children,
}: {
  clubs: OwnedClubFate[];
  result?: SubmissionResult<string[]>;
  /** Other settings of the tab (Data saver), shown first. */
  children?: React.ReactNode;
}) {
  return (
    <div className="space-y-8">
      <h2 id="settings-section-title" className="text-lg font-semibold text-bark-900">
        Privacy
      </h2>
      {children}
      <DownloadData />
      <HarvestLogLink />
      <DeleteAccount clubs={clubs} result={result} />
    </div>
  );
}

function DownloadData() {
  return (
    <TitledSection id="download-data" title="Download my data" className="space-y-3" titleClassName="font-semibold text-bark-900">
      <p className="text-sm text-stone-600">
        A JSON file with your profile (email included), posts, comments, likes, shares, follows, clubs, memberships, join requests, invites
        and the addresses of your uploaded files.
      </p>
      {/* A plain form (not Remix's): the browser fetches the file itself and saves it. */}
      <form method="get" action="/api/auth/export">
        <button type="submit" className="btn-secondary">
          Download my data
        </button>
      </form>
    </TitledSection>
  );
}

/** The member's field reports have a page of their own, with its CSV (issue 45, ADR 0095). */
function HarvestLogLink() {
  return (
    <TitledSection id="harvest-log" title="Harvest log" className="space-y-3" titleClassName="font-semibold text-bark-900">
      <p className="text-sm text-stone-600">Your field reports by the day seen, and as a CSV for your state&apos;s harvest reporting.</p>
      <Link to="/settings/harvest-log" className="btn-secondary inline-flex min-h-11 items-center">
        Open harvest log
      </Link>
    </TitledSection>
  );
}

function DeleteAccount({ clubs, result }: { clubs: OwnedClubFate[]; result?: SubmissionResult<string[]> }) {
  const busy = useIsPending({ intent: "delete-account" });
  useForgetOnDeletion();
  const [form, fields] = useForm({
    id: "delete-account",
    lastResult: result,
    constraint: CONSTRAINTS.accountDeletion,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: useBrowserValidation(() => import("~/schemas/profile").then((m) => m.accountDeletionSchema)),
  });
  return (
    <TitledSection
      id="delete-account"
      title="Delete my account"
      className="space-y-3 border-t border-stone-200 pt-6"
      titleClassName="font-semibold text-red-800"
    >
      <p className="text-sm text-stone-700">
        This cannot be undone. Deleting your account removes, for good: your profile, your posts (with their comments, likes and files),
        your comments, your likes, who you follow and who follows you, your club memberships, your join requests and the invites you made.
        Every device you are signed in on is signed out.
      </p>
      <ClubFates clubs={clubs} />
      <Form method="post" action={ACTION} {...getFormProps(form)} className="max-w-md space-y-4">
        <FormAlert id={`${form.id}-error`} title="Your account was not deleted" errors={form.errors} />
        <Field id={fields.password.id} label="Your password" errors={fields.password.errors} hint="To confirm it is you.">
          <input {...getInputProps(fields.password, { type: "password" })} autoComplete="current-password" className="input" />
        </Field>
        <button type="submit" name="intent" value="delete-account" className="btn-danger" disabled={busy}>
          {busy ? "Deleting..." : "Delete my account"}
        </button>
      </Form>
    </TitledSection>
  );
}

function ClubFates({ clubs }: { clubs: OwnedClubFate[] }) {
  if (clubs.length === 0) return <p className="text-sm text-stone-700">You own no clubs.</p>;
  return (
    <div className="text-sm text-stone-700">
      <p>
        Each club you own passes to its longest-standing admin, or else its longest-standing member; a club with no one else in it is
        deleted with its posts.
      </p>
      <ul className="mt-2 list-disc space-y-1 pl-5" aria-label="Clubs you own">
        {clubs.map((club) => (
          <li key={club.id}>
            <span className="font-medium">{club.name}</span>:{" "}
            {club.heir
              ? `passes to ${club.heir.displayName} (@${club.heir.username}, ${club.heir.role === "admin" ? "admin" : "member"})`
              : "will be deleted (no other members)"}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Once the deletion has gone through (the answer redirects away from settings), this browser forgets
 * the member's drafts and outbox as logout does (ADR 0031, 0034); a wrong password keeps them. The answer itself
 * clears the HTTP cache, and the service worker forgets its saved pages when the next answer names a
 * visitor (ADR 0033).
 */
function useForgetOnDeletion() {
  const navigation = useNavigation();
  const deleted =
    navigation.state === "loading" &&
    navigation.formData?.get("intent") === "delete-account" &&
    navigation.location.pathname !== "/settings";
  useEffect(() => {
    if (!deleted) return;
    forgetMemberOnDevice();
  }, [deleted]);
}
