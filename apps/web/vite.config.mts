import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Static files with relative URLs: any host, any path. Where the API and the chains are is read at run time from
// ./config.json (see src/lib/runtime-config.ts), so one build serves every environment.
export default defineConfig({
  plugins: [react()],
  base: "./",
  // Two pages: the player app (index.html) and the merchant console (console/index.html, served at /console/).
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1_000,
    rollupOptions: { input: { main: "index.html", console: "console/index.html" } },
  },
});
