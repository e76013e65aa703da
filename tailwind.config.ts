import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        // A hunter's palette: bark brown, field olive and blaze orange.
        bark: { 50: "#f7f4ef", 100: "#ebe3d6", 600: "#6b4f33", 700: "#573f28", 800: "#3f2e1d", 900: "#2a1f14" },
        field: { 500: "#6b7f3a", 600: "#56692c", 700: "#435222" },
        blaze: { 500: "#f26a1b", 600: "#d9560c" },
      },
    },
  },
  plugins: [],
} satisfies Config;
