import type { ReactNode } from "react";

/** A checkbox or radio with its label as the whole row, a phone's tap target (44px). */
export function Choice({
  type,
  name,
  value,
  defaultChecked,
  hint,
  children,
}: {
  type: "checkbox" | "radio";
  name: string;
  value?: string;
  defaultChecked: boolean;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <label className="flex min-h-11 cursor-pointer items-start gap-3 rounded-md px-2 py-2 hover:bg-stone-50">
      <input type={type} name={name} value={value ?? "on"} defaultChecked={defaultChecked} className="mt-1 h-5 w-5 shrink-0" />
      <span>
        <span className="block text-stone-800">{children}</span>
        {hint ? <span className="block text-sm text-stone-500">{hint}</span> : null}
      </span>
    </label>
  );
}
