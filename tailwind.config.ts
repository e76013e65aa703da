import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  // Not classes: the scanner reads the backup file name's regex (utils/operations/backup.server.ts, `/[-:.]/g`) as
  // an arbitrary property and writes `-: .;`, which the build warns is not CSS (issue 29).
  blocklist: ["[-:.]"],
  theme: {
    extend: {
      colors: {
        // A hunter's palette: bark brown, field olive and blaze orange. bark-50, the page, is light
        // enough for stone-500 text at 4.5:1 (ADR 0026).
        bark: { 50: "#fbf9f6", 100: "#ebe3d6", 600: "#6b4f33", 700: "#573f28", 800: "#3f2e1d", 900: "#2a1f14" },
        field: { 500: "#6b7f3a", 600: "#56692c", 700: "#435222" },
        // 500 is the blaze-orange accent (logo, focus rings, borders); 600 and 700 carry white text
        // (5.3:1 and 7:1, WCAG AA) and small orange text on light tints (ADR 0026).
        blaze: { 500: "#f26a1b", 600: "#b8470a", 700: "#9a3b08" },
      },
    },
  },
  plugins: [],
} satisfies Config;
