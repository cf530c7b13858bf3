import { loginBody, REFRESH_TOKEN_TTL_SECONDS } from "@balcao/shared";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { App } from "../../app";
import { actorOf, bearerToken } from "../../http/auth";
import { mountPrefix } from "../../http/backend";
import { TokenService } from "./tokens";

export const REFRESH_COOKIE = "jrt";
/** The cookie goes only to the auth routes, under the prefix the caller used: /api/auth, or /auth on the backend listener. */
const cookiePath = (request: FastifyRequest) => `${mountPrefix(request)}/auth`;

export function registerAuthRoutes(app: App): void {
  const { auth, ctx } = app;
  const secureCookie = ctx.config.publicUrl?.startsWith("https://") ?? false;

  const setRefreshCookie = (request: FastifyRequest, reply: FastifyReply, token: string) =>
    reply.setCookie(REFRESH_COOKIE, token, {
      httpOnly: true,
      sameSite: "strict",
      secure: secureCookie,
      path: cookiePath(request),
      maxAge: REFRESH_TOKEN_TTL_SECONDS,
    });

  app.post("/auth/login", { schema: { body: loginBody, tags: ["auth"] } }, async (request, reply) => {
    const result = await auth.login(request.body.email, request.body.password, clientOf(request));
    setRefreshCookie(request, reply, result.refreshToken);
    return { token: result.token, user: result.user };
  });

  app.post("/auth/refresh_token", { schema: { tags: ["auth"] } }, async (request, reply) => {
    try {
      const result = await auth.refresh(request.cookies[REFRESH_COOKIE]);
      setRefreshCookie(request, reply, result.refreshToken);
      return { token: result.token, user: result.user };
    } catch (err) {
      reply.clearCookie(REFRESH_COOKIE, { path: cookiePath(request) });
      throw err;
    }
  });

  app.delete("/auth/logout", { schema: { tags: ["auth"] } }, async (request, reply) => {
    // The access token may have expired already: the refresh cookie identifies the session too.
    const cookie = request.cookies[REFRESH_COOKIE];
    let sid = cookie ? TokenService.sessionIdOf(cookie) : null;
    if (!sid) {
      const token = bearerToken(request);
      if (token)
        sid = await ctx.tokens.verifyAccess(token).then(
          (c) => c.sid,
          () => null,
        );
    }
    if (sid) await auth.logout(sid);
    reply.clearCookie(REFRESH_COOKIE, { path: cookiePath(request) });
    return reply.status(204).send();
  });

  app.get("/auth/me", { preHandler: app.authenticate, schema: { tags: ["auth"] } }, async (request) => {
    return app.users.show(actorOf(request), actorOf(request).id);
  });
}

export function clientOf(request: FastifyRequest): { ip: string; userAgent: string } {
  return { ip: request.ip, userAgent: String(request.headers["user-agent"] ?? "") };
}
