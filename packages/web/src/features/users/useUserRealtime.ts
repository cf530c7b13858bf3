import { useQueryClient } from "@tanstack/react-query";
import { useSocketEvent } from "../../api/SocketProvider";
import { useSession } from "../auth/SessionProvider";
import { patchUsersCache, type UserEvent } from "./usersCache";

/** Keeps cached user lists and the session's own user in step with the `user` socket event. */
export function useUserRealtime(): void {
  const queryClient = useQueryClient();
  const { user: me, setUser } = useSession();
  useSocketEvent<UserEvent>("user", (event) => {
    patchUsersCache(queryClient, event);
    if (event.action !== "delete" && me && event.user.id === me.id) setUser(event.user);
  });
}
