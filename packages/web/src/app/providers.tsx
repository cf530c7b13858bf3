import type { UserDTO } from "@balcao/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ApiError } from "../api/client";
import { SocketProvider } from "../api/SocketProvider";
import { Toaster } from "../components/toasts";
import { SessionProvider, useSession } from "../features/auth/SessionProvider";
import { AppThemeProvider } from "./theme";

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        // Client errors (4xx) are answers, not glitches: do not retry them.
        retry: (failures, err) => !(err instanceof ApiError && err.status < 500) && failures < 2,
      },
    },
  });
}

/** Theme and toasts: the providers that do not depend on a server. */
export function UiProviders({ children }: { children: ReactNode }) {
  return (
    <AppThemeProvider>
      {children}
      <Toaster />
    </AppThemeProvider>
  );
}

function SessionSocket({ children }: { children: ReactNode }) {
  const { user } = useSession();
  return <SocketProvider enabled={user !== null}>{children}</SocketProvider>;
}

/** Every provider of the app; `initialUser` is a user the light login page just logged in (SessionProvider). */
export function AppProviders({ queryClient, initialUser, children }: { queryClient: QueryClient; initialUser?: UserDTO; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <UiProviders>
        <SessionProvider initialUser={initialUser}>
          <SessionSocket>{children}</SessionSocket>
        </SessionProvider>
      </UiProviders>
    </QueryClientProvider>
  );
}
