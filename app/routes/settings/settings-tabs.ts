/** The settings page's tabs (`?tab=`), read by its loader and drawn by its page. */
export const TABS = [
  { id: "profile", label: "Profile" },
  { id: "security", label: "Security" },
  { id: "notifications", label: "Notifications" },
  { id: "privacy", label: "Privacy" },
] as const;
export type Tab = (typeof TABS)[number]["id"];
export const tabOf = (value: string | null): Tab => TABS.find((t) => t.id === value)?.id ?? "profile";
