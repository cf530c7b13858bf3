import { loginBody, REFRESH_TOKEN_TTL_SECONDS } from "@balcao/shared";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { App } from "../../app";
import { actorOf, bearerToken } from "../../http/auth";
import { TokenService } from "./tokens";

export const REFRESH_COOKIE = "jrt";
const COOKIE_PATH = "/api/auth";

export function registerAuthRoutes(app: App): void {
  const { auth, ctx } = app;
  const secureCookie = ctx.config.publicUrl?.startsWith("https://") ?? false;

  const setRefreshCookie = (reply: FastifyReply, token: string) =>
    reply.setCookie(REFRESH_COOKIE, token, {
      httpOnly: true,
      sameSite: "strict",
      secure: secureCookie,
      path: COOKIE_PATH,
      maxAge: REFRESH_TOKEN_TTL_SECONDS,
    });

  app.post("/auth/login", { schema: { body: loginBody, tags: ["auth"] } }, async (request, reply) => {
    const result = await auth.login(request.body.email, request.body.password, clientOf(request));
    setRefreshCookie(reply, result.refreshToken);
    return { token: result.token, user: result.user };
  });

  app.post("/auth/refresh_token", { schema: { tags: ["auth"] } }, async (request, reply) => {
    try {
      const result = await auth.refresh(request.cookies[REFRESH_COOKIE]);
      setRefreshCookie(reply, result.refreshToken);
      return { token: result.token, user: result.user };
    } catch (err) {
      reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
      throw err;
    }
  });

  app.delete("/auth/logout", { schema: { tags: ["auth"] } }, async (request, reply) => {
    // The access token may have expired already: the refresh cookie identifies the session too.
    const cookie = request.cookies[REFRESH_COOKIE];
    let sid = cookie ? TokenService.sessionIdOf(cookie) : null;
    if (!sid) {
      const token = bearerToken(request);
      if (token) sid = await ctx.tokens.verifyAccess(token).then((c) => c.sid, () => null);
    }
    if (sid) await auth.logout(sid);
    reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
    return reply.status(204).send();
  });

  app.get("/auth/me", { preHandler: app.authenticate, schema: { tags: ["auth"] } }, async (request) => {
    return app.users.show(actorOf(request), actorOf(request).id);
  });
}

export function clientOf(request: FastifyRequest): { ip: string; userAgent: string } {
  return { ip: request.ip, userAgent: String(request.headers["user-agent"] ?? "") };
}
