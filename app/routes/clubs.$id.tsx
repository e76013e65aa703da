import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  Form,
  Link,
  useActionData,
  useFetcher,
  useLoaderData,
  useNavigation,
  useSearchParams,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { useEffect, useRef, useState, type MouseEvent, type ReactNode } from "react";
import { checkedFrom, PrivateSwitch } from "~/components/club/fields";
import { ClubErrorBoundary } from "~/components/club/error";
import { ClubImage, memberCountText, PeopleIcon, PinIcon, PrivacyIcon } from "~/components/club/card";
import { PostCard } from "~/components/post/card";
import { RelativeTime } from "~/components/ui/relative-time";
import { showToast } from "~/components/layout/toaster";
import { Avatar } from "~/components/ui/avatar";
import { DialogCancelButton, ModalDialog } from "~/components/ui/dialog";
import { Field, FieldErrors } from "~/components/ui/field";
import {
  countPendingRequests,
  decideJoinRequest,
  deleteClub,
  getClub,
  joinClub,
  leaveClub,
  listJoinRequests,
  listMembers,
  updateClub,
  type Club,
} from "~/models/club.server";
import { createInvite, listInvites, revokeInvite, type ClubInvite } from "~/models/invite.server";
import { listFeed } from "~/models/post.server";
import { safeRedirect } from "~/schemas/auth";
import { CLUB_DESCRIPTION_MAX, CLUB_NOT_FOUND, CLUB_RULES_MAX, EDIT_LIMIT_MAX, editClubSchema, inviteSchema, joinSchema } from "~/schemas/club";
import { APP_NAME } from "~/utils/brand";
import { isAppError, notFound, unauthorized } from "~/utils/errors";
import { useHydrated } from "~/utils/hydrated";
import { pageAction } from "~/web/page-action";
import { replyWithError } from "~/web/page-errors.server";
import { getSessionUser } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";

type Tab = "posts" | "members" | "rules" | "requests" | "invites";
type FormIntent = "join" | "update" | "invite";
type ActionData = { intent: FormIntent; result: SubmissionResult<string[]> };

const DELETE_TITLE = "Delete Club";
const DELETE_TEXT = "Are you sure you want to delete this club? Its members, requests, invites and posts will be removed. This action cannot be undone.";

function clubIdOf(value: string | undefined): number {
  if (!value || !/^[1-9][0-9]{0,15}$/.test(value)) throw json({ message: CLUB_NOT_FOUND }, { status: 404 });
  return Number(value);
}

/** The site's public origin, as the browser reached it (for invite links). */
function originOf(request: Request): string {
  const url = new URL(request.url);
  const host = request.headers.get("X-Forwarded-Host") ?? request.headers.get("Host") ?? url.host;
  const proto = request.headers.get("X-Forwarded-Proto") ?? url.protocol.replace(":", "");
  return `${proto}://${host}`;
}

/**
 * /clubs/{id}?tab=posts|members|rules|requests|invites. Tabs are links the loader reads; a tab the
 * caller may not see (Requests for anyone but the owner, Invites for non-members, Rules when there
 * are none) falls back to Posts.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = clubIdOf(params.id);
  const user = await getSessionUser(request);
  let club: Club;
  try {
    club = getClub(user, id);
  } catch (error) {
    if (isAppError(error) && error.status === 404) throw json({ message: CLUB_NOT_FOUND }, { status: 404 });
    throw error;
  }
  const url = new URL(request.url);
  const isOwner = club.userRole === "owner";
  const pendingCount = isOwner ? countPendingRequests(id) : 0;
  const canSeePosts = !club.isPrivate || club.isMember;

  const tabs: Tab[] = ["posts", "members"];
  if (club.rules) tabs.push("rules");
  if (isOwner && pendingCount > 0) tabs.push("requests");
  if (club.isMember) tabs.push("invites");
  const requested = url.searchParams.get("tab") as Tab | null;
  const tab: Tab = requested && tabs.includes(requested) ? requested : "posts";

  const posts = tab === "posts" && canSeePosts ? await listFeed(user, { clubId: id, cursor: url.searchParams.get("cursor") ?? undefined }) : null;
  const members = tab === "members" ? listMembers(id) : null;
  const requests = tab === "requests" ? listJoinRequests(user, id) : null;
  const invites = tab === "invites" ? listInvites(user, id) : null;
  const generatedCode = url.searchParams.get("generated");
  const generated = invites && generatedCode ? (invites.find((i) => i.inviteCode === generatedCode) ?? null) : null;

  return json(
    {
      club,
      tab,
      tabs,
      pendingCount,
      canSeePosts,
      viewerId: user?.id ?? null,
      posts: posts?.posts ?? null,
      nextCursor: posts?.nextCursor ?? null,
      members,
      requests,
      invites,
      generated,
      origin: originOf(request),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** A refusal the member can act on (full club, owner leaving …) comes back as an error toast. */
async function refusal(back: string, error: unknown, fallback: string) {
  if (!isAppError(error) || error.status === 401 || error.status === 403 || error.status === 404) throw error;
  return redirectWithToast(back, { title: "Error", description: error.message || fallback, type: "error" });
}

function formReply(intent: FormIntent, result: SubmissionResult<string[]>, status: number) {
  return json<ActionData>({ intent, result }, { status });
}

async function conformError(intent: FormIntent, submission: Parameters<typeof replyWithError>[0], error: unknown) {
  const response = replyWithError(submission, error);
  return formReply(intent, (await response.json()) as SubmissionResult<string[]>, response.status);
}

/**
 * Every club mutation posts here with an `intent`: join (with an optional message), leave,
 * approve / reject (owner), update / delete (owner), invite / revoke. Each ends in a redirect with a
 * flash toast; a form with fields that fails validation comes back with what was typed.
 */
export const action = pageAction(async ({ request, params }) => {
  const id = clubIdOf(params.id);
  const actor = await getSessionUser(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const here = `/clubs/${id}`;

  switch (intent) {
    case "join": {
      // SPEC.md §8: a visitor gets the sign-in notice (pageAction sends them to /auth and back).
      if (!actor) throw unauthorized("Please sign in to join clubs");
      const back = safeRedirect(formData.get("redirectTo"), here);
      const submission = parseWithZod(formData, { schema: joinSchema });
      if (submission.status !== "success") return formReply("join", submission.reply(), 400);
      let result;
      try {
        result = joinClub(actor, id, { message: submission.value.message });
      } catch (error) {
        return refusal(back, error, "Failed to join club");
      }
      const name = getClub(actor, id).name;
      return result.status === "joined"
        ? redirectWithToast(back, { title: "Joined club", description: `Welcome to ${name}!`, type: "success" })
        : redirectWithToast(back, { title: "Request sent", description: "The club owner will review your request.", type: "success" });
    }
    case "leave": {
      try {
        leaveClub(actor, id);
      } catch (error) {
        return refusal(here, error, "Failed to leave club");
      }
      return redirectWithToast(here, { title: "Left club", description: "You are no longer a member of this club.", type: "success" });
    }
    case "approve":
    case "reject": {
      const requestId = Number(formData.get("requestId"));
      if (!Number.isInteger(requestId) || requestId < 1) throw notFound("Join request not found");
      let result;
      try {
        result = decideJoinRequest(actor, id, requestId, intent);
      } catch (error) {
        return refusal(`${here}?tab=requests`, error, "Failed to update request");
      }
      return redirectWithToast(`${here}?tab=requests`, {
        title: result.status === "approved" ? "Request approved" : "Request rejected",
        type: "success",
      });
    }
    case "update": {
      const submission = parseWithZod(formData, { schema: editClubSchema });
      if (submission.status !== "success") return formReply("update", submission.reply(), 400);
      try {
        updateClub(actor, id, submission.value);
      } catch (error) {
        return conformError("update", submission, error);
      }
      return redirectWithToast(here, { title: "Club updated", description: "Your changes have been saved.", type: "success" });
    }
    case "delete": {
      try {
        await deleteClub(actor, id);
      } catch (error) {
        return refusal(here, error, "Failed to delete club");
      }
      return redirectWithToast("/clubs", { title: "Club deleted", description: "The club and everything in it has been removed.", type: "success" });
    }
    case "invite": {
      const submission = parseWithZod(formData, { schema: inviteSchema });
      if (submission.status !== "success") return formReply("invite", submission.reply(), 400);
      let invite;
      try {
        invite = createInvite(actor, id, submission.value);
      } catch (error) {
        return conformError("invite", submission, error);
      }
      return redirectWithToast(`${here}?${new URLSearchParams({ tab: "invites", generated: invite.inviteCode })}`, {
        title: "Invite link created",
        description: "Share it with the hunters you want in the club.",
        type: "success",
      });
    }
    case "revoke": {
      const inviteId = Number(formData.get("inviteId"));
      if (!Number.isInteger(inviteId) || inviteId < 1) throw notFound("Invite not found");
      try {
        revokeInvite(actor, id, inviteId);
      } catch (error) {
        return refusal(`${here}?tab=invites`, error, "Failed to revoke invite");
      }
      return redirectWithToast(`${here}?tab=invites`, { title: "Invite revoked", type: "success" });
    }
    default:
      return json({ error: "Unknown action" }, { status: 400 });
  }
});

/** Opening a dialog's no-JavaScript twin (?edit=1, ?join=1, ?delete=1) changes no data. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const strip = (url: URL) => {
    const params = new URLSearchParams(url.search);
    for (const key of ["edit", "delete", "join", "joined"]) params.delete(key);
    params.sort();
    return params.toString();
  };
  return strip(currentUrl) === strip(nextUrl) ? false : defaultShouldRevalidate;
};

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;
type ClubView = LoaderData["club"];

export default function ClubPage() {
  const data = useLoaderData<typeof loader>();
  const { club } = data;
  const [params, setParams] = useSearchParams();
  const isOwner = club.userRole === "owner";
  const editing = isOwner && params.has("edit");
  const confirmingDelete = isOwner && params.has("delete");
  const askingToJoin = params.has("join") && !club.isMember && club.requestStatus !== "pending";

  // After registering through an invite the stored code has done its job (SPEC.md §4 Auth).
  useEffect(() => {
    if (!params.has("joined")) return;
    window.sessionStorage.removeItem("inviteCode");
    setParams(
      (prev) => {
        prev.delete("joined");
        return prev;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [params, setParams]);

  return (
    <div className="space-y-6">
      <Link to="/clubs" className="inline-flex items-center gap-1 text-sm font-medium text-field-700 hover:underline">
        ← All clubs
      </Link>

      <ClubHeader club={club} />

      {confirmingDelete ? (
        <section className="card border-red-200 p-5" role="alertdialog" aria-labelledby="delete-title" aria-describedby="delete-text">
          <h2 id="delete-title" className="text-lg font-bold text-bark-900">
            {DELETE_TITLE}
          </h2>
          <p id="delete-text" className="mt-2 text-sm text-stone-600">
            {DELETE_TEXT}
          </p>
          <DeleteClubForm clubId={club.id} cancel={<Link to={`/clubs/${club.id}`} className="btn-secondary">Cancel</Link>} />
        </section>
      ) : null}
      {editing ? (
        <section className="card p-5" aria-labelledby="edit-title">
          <h2 id="edit-title" className="mb-4 text-lg font-bold text-bark-900">
            Edit Club
          </h2>
          <EditClubForm club={club} mode="page" />
        </section>
      ) : null}
      {askingToJoin ? (
        <section className="card p-5" aria-labelledby="join-title">
          <h2 id="join-title" className="text-lg font-bold text-bark-900">
            {club.isPrivate ? `Request to join ${club.name}` : `Join ${club.name}`}
          </h2>
          <p className="mt-1 text-sm text-stone-600">
            {club.isPrivate ? "The owner reviews each request. Add a note so they know who you are." : "This club is public: you join straight away."}
          </p>
          <JoinForm club={club} mode="page" />
        </section>
      ) : null}

      <ClubTabs data={data} />
    </div>
  );
}

function ClubHeader({ club }: { club: ClubView }) {
  return (
    <section className="card overflow-hidden" aria-labelledby="club-name">
      <ClubImage club={club} className="h-40 w-full sm:h-56" />
      <div className="space-y-3 p-6">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <h1 id="club-name" className="flex items-center gap-2 text-3xl font-bold text-bark-900">
              <span className="break-words">{club.name}</span>
              <span className="text-stone-500">
                <PrivacyIcon isPrivate={club.isPrivate} className="h-6 w-6" />
              </span>
            </h1>
            <p className="text-sm text-stone-600">
              {club.isPrivate ? "Private club" : "Public club"}
              {club.creator ? <> · Created by {club.creator.displayName}</> : null} · <RelativeTime iso={club.createdAt} />
            </p>
          </div>
          <ClubButtons club={club} />
        </div>
        {club.description ? <p className="whitespace-pre-line break-words text-stone-800">{club.description}</p> : null}
        <p className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-stone-600">
          <span data-testid="club-member-count" className="inline-flex items-center gap-1">
            <PeopleIcon /> {memberCountText(club)}
          </span>
          {club.location ? (
            <span className="inline-flex items-center gap-1">
              <PinIcon /> {club.location}
            </span>
          ) : null}
        </p>
        {club.tags.length ? (
          <ul className="flex flex-wrap gap-1" aria-label="Tags">
            {club.tags.map((tag) => (
              <li key={tag} className="badge bg-field-600/10 text-field-700">
                {tag}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </section>
  );
}

/** SPEC.md §2 buttons by state: owner / member / pending / everyone else. */
function ClubButtons({ club }: { club: ClubView }) {
  const navigation = useNavigation();
  const pendingIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const [dialog, setDialog] = useState<"edit" | "delete" | "join" | null>(null);
  const close = () => setDialog(null);
  const open = (which: "edit" | "delete" | "join") => (event: MouseEvent) => {
    event.preventDefault();
    setDialog(which);
  };

  if (club.userRole === "owner") {
    return (
      <div className="flex gap-2">
        <Link to={`/clubs/${club.id}?edit=1`} onClick={open("edit")} className="btn-secondary" preventScrollReset>
          Edit Club
        </Link>
        <Link to={`/clubs/${club.id}?delete=1`} onClick={open("delete")} className="btn-danger" preventScrollReset>
          Delete Club
        </Link>
        <ModalDialog open={dialog === "edit"} onClose={close} title="Edit Club" description="Change the club's details and save them.">
          <EditClubForm club={club} mode="dialog" onDone={close} />
        </ModalDialog>
        <ModalDialog open={dialog === "delete"} onClose={close} title={DELETE_TITLE} description={DELETE_TEXT} role="alertdialog">
          <DeleteClubForm clubId={club.id} cancel={<DialogCancelButton />} />
        </ModalDialog>
      </div>
    );
  }
  if (club.isMember) {
    return (
      <Form method="post" action={`/clubs/${club.id}`} preventScrollReset>
        <button type="submit" name="intent" value="leave" className="btn-secondary" disabled={pendingIntent === "leave"}>
          {pendingIntent === "leave" ? "Leaving..." : "Leave Club"}
        </button>
      </Form>
    );
  }
  if (club.requestStatus === "pending") {
    return (
      <button type="button" className="btn-secondary" disabled>
        Request Pending
      </button>
    );
  }
  if (club.isPrivate) {
    return (
      <>
        <Link to={`/clubs/${club.id}?join=1`} onClick={open("join")} className="btn-primary" preventScrollReset>
          {club.requestStatus === "rejected" ? "Re-apply" : "Request to Join"}
        </Link>
        <ModalDialog
          open={dialog === "join"}
          onClose={close}
          title={`Request to join ${club.name}`}
          description="The owner reviews each request. Add a note so they know who you are."
        >
          <JoinForm club={club} mode="dialog" onDone={close} />
        </ModalDialog>
      </>
    );
  }
  return (
    <Form method="post" action={`/clubs/${club.id}`} preventScrollReset>
      <button type="submit" name="intent" value="join" className="btn-primary" disabled={pendingIntent === "join"}>
        {pendingIntent === "join" ? "Joining..." : "Join Club"}
      </button>
    </Form>
  );
}

/**
 * A form that lives both inline (no JavaScript: a plain form, the page re-renders with errors) and
 * in a dialog (a fetcher: the dialog closes when the action redirects, stays open on an error).
 */
function useDialogForm(intent: FormIntent, mode: "page" | "dialog", onDone?: () => void) {
  const fetcher = useFetcher<ActionData>({ key: `club-${intent}` });
  const actionData = useActionData<ActionData>();
  const navigation = useNavigation();
  const submitted = useRef(false);
  const fetcherResult = fetcher.data?.intent === intent ? fetcher.data.result : undefined;
  const lastResult = mode === "dialog" ? fetcherResult : actionData?.intent === intent ? actionData.result : undefined;
  const busy = mode === "dialog" ? fetcher.state !== "idle" : navigation.state !== "idle" && navigation.formData?.get("intent") === intent;

  useEffect(() => {
    if (mode !== "dialog") return;
    if (fetcher.state !== "idle") {
      submitted.current = true;
      return;
    }
    if (!submitted.current) return;
    submitted.current = false;
    if (fetcher.data?.result?.status === "error") return;
    onDone?.();
  }, [fetcher.state, fetcher.data, mode, onDone]);

  return { FormTag: mode === "dialog" ? fetcher.Form : Form, lastResult, busy };
}

function JoinForm({ club, mode, onDone }: { club: ClubView; mode: "page" | "dialog"; onDone?: () => void }) {
  const { FormTag, lastResult, busy } = useDialogForm("join", mode, onDone);
  const [form, fields] = useForm({
    id: `join-${mode}`,
    lastResult,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: joinSchema }),
  });
  return (
    <FormTag method="post" action={mode === "page" ? `/clubs/${club.id}?join=1` : `/clubs/${club.id}`} {...getFormProps(form)} className="mt-4 space-y-4">
      <FieldErrors id={form.errorId} errors={form.errors} />
      {club.isPrivate ? (
        <Field id={fields.message.id} label="Message (optional)" errors={fields.message.errors}>
          <textarea {...getTextareaProps(fields.message)} rows={3} maxLength={500} className="input" placeholder="Tell the owner a bit about yourself and where you hunt" />
        </Field>
      ) : null}
      <div className="flex justify-end gap-3">
        <CancelButton mode={mode} clubId={club.id} />
        <button type="submit" name="intent" value="join" className="btn-primary" disabled={busy}>
          {busy ? "Sending..." : club.isPrivate ? "Send Request" : "Join Club"}
        </button>
      </div>
    </FormTag>
  );
}

function EditClubForm({ club, mode, onDone }: { club: ClubView; mode: "page" | "dialog"; onDone?: () => void }) {
  const { FormTag, lastResult, busy } = useDialogForm("update", mode, onDone);
  const [form, fields] = useForm({
    id: `edit-club-${mode}`,
    lastResult,
    defaultValue: {
      name: club.name,
      description: club.description,
      imageUrl: club.imageUrl ?? "",
      location: club.location ?? "",
      maxMembers: club.memberLimit === null ? "" : String(club.memberLimit),
      isPrivate: club.isPrivate ? "true" : "false",
      tags: club.tags.join(", "),
      rules: club.rules ?? "",
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: editClubSchema }),
  });
  const tagErrors = Object.values(fields.tags.allErrors ?? {}).flat();
  return (
    <FormTag method="post" action={mode === "page" ? `/clubs/${club.id}?edit=1` : `/clubs/${club.id}`} {...getFormProps(form)} className="space-y-4">
      <FieldErrors id={form.errorId} errors={form.errors} />
      <Field id={fields.name.id} label="Name" errors={fields.name.errors}>
        <input {...getInputProps(fields.name, { type: "text" })} maxLength={100} className="input" />
      </Field>
      <Field id={fields.description.id} label="Description" errors={fields.description.errors}>
        <textarea {...getTextareaProps(fields.description)} rows={4} maxLength={CLUB_DESCRIPTION_MAX} className="input" />
      </Field>
      <Field id={fields.imageUrl.id} label="Image URL" errors={fields.imageUrl.errors}>
        <input {...getInputProps(fields.imageUrl, { type: "url" })} inputMode="url" className="input" placeholder="https://" />
      </Field>
      <Field id={fields.location.id} label="Location" errors={fields.location.errors}>
        <input {...getInputProps(fields.location, { type: "text" })} maxLength={100} className="input" placeholder="City, State" />
      </Field>
      <Field id={fields.maxMembers.id} label="Max members" errors={fields.maxMembers.errors} hint={`Between 2 and ${EDIT_LIMIT_MAX}. Leave empty for no limit.`}>
        <input {...getInputProps(fields.maxMembers, { type: "number" })} min={2} max={EDIT_LIMIT_MAX} step={1} className="input max-w-[12rem]" placeholder="Unlimited" />
      </Field>
      <div>
        <PrivateSwitch id={fields.isPrivate.id} defaultChecked={checkedFrom(fields.isPrivate.initialValue, club.isPrivate)} />
        <FieldErrors errors={fields.isPrivate.errors} />
      </div>
      <Field id={fields.tags.id} label="Tags" errors={tagErrors} hint="Separate tags with commas.">
        <input id={fields.tags.id} name={fields.tags.name} type="text" defaultValue={tagsText(fields.tags.initialValue)} className="input" placeholder="rifle, deer camp" />
      </Field>
      <Field id={fields.rules.id} label="Rules" errors={fields.rules.errors}>
        <textarea {...getTextareaProps(fields.rules)} rows={4} maxLength={CLUB_RULES_MAX} className="input" />
      </Field>
      <div className="flex justify-end gap-3">
        <CancelButton mode={mode} clubId={club.id} />
        <button type="submit" name="intent" value="update" className="btn-primary" disabled={busy}>
          {busy ? "Saving..." : "Save Changes"}
        </button>
      </div>
    </FormTag>
  );
}

/** Cancel closes the dialog, or leaves the inline (no-JavaScript) form for the club page. */
function CancelButton({ mode, clubId }: { mode: "page" | "dialog"; clubId: number }) {
  return mode === "dialog" ? (
    <DialogCancelButton />
  ) : (
    <Link to={`/clubs/${clubId}`} className="btn-secondary">
      Cancel
    </Link>
  );
}

function tagsText(initial: unknown): string {
  if (Array.isArray(initial)) return initial.filter((v) => typeof v === "string").join(", ");
  return typeof initial === "string" ? initial : "";
}

function DeleteClubForm({ clubId, cancel }: { clubId: number; cancel: ReactNode }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete";
  return (
    <Form method="post" action={`/clubs/${clubId}`} className="mt-4 flex justify-end gap-3">
      {cancel}
      <button type="submit" name="intent" value="delete" className="btn-danger" disabled={busy}>
        {busy ? "Deleting..." : "Delete"}
      </button>
    </Form>
  );
}

// ---------------------------------------------------------------------------------------------
// Tabs
// ---------------------------------------------------------------------------------------------

const TAB_LABELS: Record<Tab, string> = { posts: "Posts", members: "Members", rules: "Rules", requests: "Requests", invites: "Invites" };

function ClubTabs({ data }: { data: LoaderData }) {
  const { club, tab, tabs, pendingCount } = data;
  return (
    <div className="space-y-4">
      <nav aria-label="Club sections" className="flex gap-1 overflow-x-auto border-b border-stone-200">
        {tabs.map((t) => (
          <Link
            key={t}
            to={t === "posts" ? `/clubs/${club.id}` : `/clubs/${club.id}?tab=${t}`}
            aria-current={tab === t ? "page" : undefined}
            preventScrollReset
            className={`-mb-px whitespace-nowrap border-b-2 px-4 py-2 text-sm font-semibold ${
              tab === t ? "border-blaze-500 text-bark-900" : "border-transparent text-stone-500 hover:text-stone-800"
            }`}
          >
            {TAB_LABELS[t]}
            {t === "requests" ? ` (${pendingCount})` : null}
          </Link>
        ))}
      </nav>
      {tab === "posts" ? <PostsTab data={data} /> : null}
      {tab === "members" && data.members ? <MembersTab members={data.members} /> : null}
      {tab === "rules" ? (
        <section className="card whitespace-pre-line break-words p-6 text-stone-800" aria-label="Rules" data-testid="club-rules">
          {club.rules}
        </section>
      ) : null}
      {tab === "requests" && data.requests ? <RequestsTab clubId={club.id} requests={data.requests} /> : null}
      {tab === "invites" && data.invites ? <InvitesTab data={data} invites={data.invites} /> : null}
    </div>
  );
}

function PostsTab({ data }: { data: LoaderData }) {
  const { club, posts, nextCursor, canSeePosts, viewerId } = data;
  if (!canSeePosts) {
    return (
      <div className="card p-8 text-center text-stone-600" data-testid="club-posts-private">
        <p className="font-semibold text-bark-900">This club is private</p>
        <p className="mt-1">Only members can see its posts.</p>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      {club.isMember ? (
        <div className="flex justify-end">
          <Link to={`/clubs/${club.id}/create`} className="btn-primary">
            Create Post
          </Link>
        </div>
      ) : null}
      {posts && posts.length ? (
        posts.map((post) => <PostCard key={post.id} post={post} viewerId={viewerId} redirectTo={`/clubs/${club.id}`} />)
      ) : (
        <div className="card p-8 text-center text-stone-600">No posts in this club yet.</div>
      )}
      {nextCursor ? (
        <div className="text-center">
          <Link to={`/clubs/${club.id}?${new URLSearchParams({ tab: "posts", cursor: nextCursor })}`} className="btn-secondary">
            Older posts
          </Link>
        </div>
      ) : null}
    </div>
  );
}

function MembersTab({ members }: { members: NonNullable<LoaderData["members"]> }) {
  return (
    <ul className="card divide-y divide-stone-100" aria-label="Members">
      {members.map((m) => (
        <li key={m.id} className="flex items-center gap-3 p-4" data-testid="club-member">
          <Avatar src={m.avatar} name={m.displayName} size={40} />
          <div className="min-w-0 flex-1">
            <p className="flex items-center gap-2">
              <Link to={`/profile/${m.username}`} className="truncate font-semibold text-bark-900 hover:underline">
                {m.displayName}
              </Link>
              {m.role === "owner" ? <span className="badge bg-blaze-500/10 text-blaze-600">Owner</span> : null}
              {m.role === "admin" ? <span className="badge bg-field-600/10 text-field-700">Admin</span> : null}
            </p>
            <p className="text-sm text-stone-500">
              @{m.username} · Joined <RelativeTime iso={m.joinedAt} />
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

function RequestsTab({ clubId, requests }: { clubId: number; requests: NonNullable<LoaderData["requests"]> }) {
  const navigation = useNavigation();
  const deciding = navigation.state !== "idle" ? navigation.formData?.get("requestId") : null;
  return (
    <ul className="space-y-3" aria-label="Join requests">
      {requests.map((r) => (
        <li key={r.id} className="card flex flex-wrap items-start gap-4 p-4" data-testid="join-request">
          <Avatar src={r.user.avatar} name={r.user.displayName} size={40} />
          <div className="min-w-0 flex-1">
            <p className="font-semibold text-bark-900">
              <Link to={`/profile/${r.user.username}`} className="hover:underline">
                {r.user.displayName}
              </Link>{" "}
              <span className="text-sm font-normal text-stone-500">
                @{r.user.username} · <RelativeTime iso={r.createdAt} />
              </span>
            </p>
            {r.message ? <p className="mt-1 whitespace-pre-line break-words text-stone-700">{r.message}</p> : null}
          </div>
          <Form method="post" action={`/clubs/${clubId}`} className="flex gap-2" preventScrollReset>
            <input type="hidden" name="requestId" value={r.id} />
            <button type="submit" name="intent" value="approve" className="btn-primary" disabled={deciding === String(r.id)}>
              Approve
            </button>
            <button type="submit" name="intent" value="reject" className="btn-secondary" disabled={deciding === String(r.id)}>
              Reject
            </button>
          </Form>
        </li>
      ))}
    </ul>
  );
}

function usesText(uses: number | null) {
  if (uses === null) return "Unlimited uses";
  return `${uses} ${uses === 1 ? "use" : "uses"} left`;
}

function InvitesTab({ data, invites }: { data: LoaderData; invites: ClubInvite[] }) {
  const { club, generated, origin } = data;
  return (
    <div className="space-y-6">
      {generated ? <GeneratedInvite club={club} invite={generated} origin={origin} /> : <InviteForm clubId={club.id} />}
      <section aria-labelledby="active-invites" className="space-y-3">
        <h2 id="active-invites" className="text-lg font-bold text-bark-900">
          Active invites
        </h2>
        {invites.length === 0 ? (
          <p className="text-sm text-stone-600">No active invites. Generate one above.</p>
        ) : (
          <ul className="card divide-y divide-stone-100">
            {invites.map((invite) => (
              <li key={invite.id} className="flex flex-wrap items-center gap-3 p-4" data-testid="active-invite">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-mono text-sm text-bark-900">
                    {origin}/join/{invite.inviteCode}
                  </p>
                  <p className="text-xs text-stone-500">
                    {usesText(invite.usesRemaining)} ·{" "}
                    {invite.expiresAt ? (
                      <>
                        Expires <RelativeTime iso={invite.expiresAt} />
                      </>
                    ) : (
                      "Never expires"
                    )}{" "}
                    · by {invite.createdBy.displayName}
                  </p>
                </div>
                {invite.canRevoke ? (
                  <Form method="post" action={`/clubs/${club.id}`} preventScrollReset>
                    <input type="hidden" name="inviteId" value={invite.id} />
                    <button type="submit" name="intent" value="revoke" className="btn-ghost text-red-700">
                      Revoke
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function InviteForm({ clubId }: { clubId: number }) {
  const actionData = useActionData<ActionData>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "invite";
  const [form, fields] = useForm({
    id: "invite",
    lastResult: actionData?.intent === "invite" ? actionData.result : undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: inviteSchema }),
  });
  return (
    <section className="card p-5" aria-labelledby="invite-title">
      <h2 id="invite-title" className="text-lg font-bold text-bark-900">
        Invite hunters
      </h2>
      <p className="mt-1 text-sm text-stone-600">An invite link lets someone join straight away, even if the club is private.</p>
      <Form method="post" action={`/clubs/${clubId}?tab=invites`} {...getFormProps(form)} className="mt-4 space-y-4" preventScrollReset>
        <FieldErrors id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={fields.usesRemaining.id} label="Max uses (optional)" errors={fields.usesRemaining.errors} hint="Leave empty for unlimited.">
            <input {...getInputProps(fields.usesRemaining, { type: "number" })} min={1} step={1} className="input" placeholder="Unlimited" />
          </Field>
          <Field id={fields.expiresIn.id} label="Expires in hours (optional)" errors={fields.expiresIn.errors} hint="Leave empty for no expiry.">
            <input {...getInputProps(fields.expiresIn, { type: "number" })} min={1} step={1} className="input" placeholder="Never" />
          </Field>
        </div>
        <div className="flex justify-end">
          <button type="submit" name="intent" value="invite" className="btn-primary" disabled={busy}>
            {busy ? "Generating..." : "Generate Invite Link"}
          </button>
        </div>
      </Form>
    </section>
  );
}

/**
 * The link just made: copy it (JavaScript) or select it (without), share it with the device's
 * share sheet, falling back to a link that starts a social post. 'Generate New' resets the view.
 */
function GeneratedInvite({ club, invite, origin }: { club: ClubView; invite: ClubInvite; origin: string }) {
  const hydrated = useHydrated();
  const link = `${origin}/join/${invite.inviteCode}`;
  const text = `Join ${club.name} on ${APP_NAME}`;
  const socialHref = `https://twitter.com/intent/tweet?${new URLSearchParams({ text, url: link })}`;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      showToast({ title: "Link copied", description: "The invite link is on your clipboard.", type: "success" });
    } catch {
      showToast({ title: "Failed to copy", description: "Could not copy link to clipboard", type: "error" });
    }
  };
  const share = (event: MouseEvent<HTMLAnchorElement>) => {
    if (typeof navigator.share !== "function") return; // the social-post link opens instead
    event.preventDefault();
    navigator.share({ title: club.name, text, url: link }).catch(() => undefined);
  };

  return (
    <section className="card space-y-4 p-5" aria-labelledby="generated-title" data-testid="generated-invite">
      <h2 id="generated-title" className="text-lg font-bold text-bark-900">
        Invite link ready
      </h2>
      <div>
        <label htmlFor="invite-link" className="label">
          Invite link
        </label>
        <div className="flex gap-2">
          <input id="invite-link" readOnly value={link} className="input font-mono" onFocus={(e) => e.currentTarget.select()} />
          {hydrated ? (
            <button type="button" className="btn-secondary" onClick={copy}>
              Copy
            </button>
          ) : null}
        </div>
        <p className="mt-1 text-xs text-stone-500">
          {usesText(invite.usesRemaining)} ·{" "}
          {invite.expiresAt ? (
            <>
              Expires <RelativeTime iso={invite.expiresAt} />
            </>
          ) : (
            "Never expires"
          )}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <a href={socialHref} target="_blank" rel="noopener noreferrer" onClick={share} className="btn-primary">
          Share
        </a>
        <Link to={`/clubs/${club.id}?tab=invites`} className="btn-secondary" preventScrollReset>
          Generate New
        </Link>
      </div>
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: `${CLUB_NOT_FOUND} · ${APP_NAME}` }];
  return [
    { title: `${data.club.name} · ${APP_NAME}` },
    { name: "description", content: data.club.description.slice(0, 160) },
  ];
};

export const ErrorBoundary = ClubErrorBoundary;
