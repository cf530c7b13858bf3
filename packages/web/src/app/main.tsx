import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { loadInitialLanguage } from "./i18n";
import { AppProviders, createQueryClient } from "./providers";
import { routes } from "./router";

const router = createBrowserRouter(routes);
const queryClient = createQueryClient();

// The texts of the start-up language come first (one small chunk), so no page renders untranslated keys.
await loadInitialLanguage();
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
