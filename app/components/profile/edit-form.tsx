import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Avatar } from "~/components/ui/avatar";
import type { DialogFormBag } from "~/components/ui/dialog-form";
import { FormActions } from "~/components/ui/form-actions";
import { CONSTRAINTS } from "~/schemas/constraints";
import type { Profile } from "~/schemas/shapes";
import { useBrowserValidation } from "~/utils/browser-validation";
import { AvatarUpload, RemoveAvatar } from "./avatar-upload";
import { FailureAlert, ProfileFields } from "./fields";

/**
 * Edit Profile's form, in the dialog or inline at ?edit=1 (the profile page's DialogForm): its own
 * module, so the profile page fetches it, and Conform with it, only when it is shown (ADR 0044).
 */
export function EditProfileForm({
  profile,
  form: bag,
  lastResult,
}: {
  profile: Pick<Profile, "username" | "displayName" | "bio" | "location" | "avatar">;
  form: Omit<DialogFormBag<unknown>, "data">;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const here = `/profile/${profile.username}`;
  const returnTo = bag.mode === "dialog" ? here : `${here}?edit=1`;
  const [form, fields] = useForm({
    id: "edit-profile",
    lastResult,
    defaultValue: { displayName: profile.displayName, bio: profile.bio ?? "", location: profile.location ?? "" },
    constraint: CONSTRAINTS.profile,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: useBrowserValidation(() => import("~/schemas/profile").then((m) => m.profileSchema)),
  });
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-4">
        <Avatar src={profile.avatar} name={profile.displayName} size={72} />
        <div className="min-w-0 flex-1 space-y-2">
          {/* The upload's redirect comes back to where the form is: the page under the dialog, or ?edit=1. */}
          <div className="flex flex-wrap items-end gap-2">
            <AvatarUpload action={here} returnTo={returnTo} label="Change photo" variant="button" />
            {profile.avatar ? <RemoveAvatar action={here} returnTo={returnTo} /> : null}
          </div>
          <p className="text-sm text-stone-500">JPEG, PNG, WebP or GIF, up to 50MB. Location data is removed.</p>
        </div>
      </div>

      <bag.Form method="post" action={bag.action} {...getFormProps(form)} className="space-y-4">
        <FailureAlert fallback="Failed to update profile" result={lastResult} />
        <ProfileFields fields={fields} />
        <FormActions form={bag} intent="update-profile" label="Save Changes" busyLabel="Saving..." />
      </bag.Form>
    </div>
  );
}
