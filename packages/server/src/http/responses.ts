/**
 * Response schemas of the API (issue 19): each route's success answer, as a zod schema from @balcao/shared,
 * attached to the route so the OpenAPI document at /api/docs describes it (docs/decisions.md).
 *
 * The schemas document; they never change or refuse what is sent. Outside tests the body is plain
 * JSON.stringify of what the handler returned, exactly as before the schemas existed (no field stripped,
 * no 500 for a schema a field outgrew). Under NODE_ENV=test every JSON answer is checked against its
 * route's schema (as the client receives it, after JSON), and a 2xx status the route does not declare is
 * refused too: the whole server suite's traffic proves the documented schemas true, and a wrong one fails
 * the test that met it with a 500 and a message on stderr.
 */
import type { FastifyInstance, FastifySerializerCompiler } from "fastify";
import type { z, ZodType } from "zod";
import { accessKey } from "./access";
import { ROUTE_RESPONSES, type RouteResponses } from "./responseTable";

export { ROUTE_RESPONSES };

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
}

/** The serializer of routes with a response schema: JSON.stringify, plus the check in tests. */
export function responseSerializer(check: boolean): FastifySerializerCompiler<unknown> {
  return ({ schema, method, url, httpStatus }) => {
    const zod = schema as ZodType;
    if (!check || typeof zod?.safeParse !== "function") return (data) => JSON.stringify(data);
    return (data) => {
      const json = JSON.stringify(data);
      const result = zod.safeParse(json === undefined ? undefined : JSON.parse(json));
      if (!result.success) {
        const message = `response of ${method} ${url} (${httpStatus}) does not match its documented schema: ${describeIssues(result.error)}`;
        process.stderr.write(`${message}\n`);
        throw new Error(message);
      }
      return json;
    };
  };
}

/**
 * Attaches each route's documented responses (responseTable.ts) when the route is added; with `check`, a
 * 2xx answer whose status the route does not document fails (tests only).
 */
export function registerResponseSchemas(app: FastifyInstance, check: boolean): void {
  app.setSerializerCompiler(responseSerializer(check));
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const method = methods.find((m) => m !== "HEAD");
    if (!method) return;
    const responses: RouteResponses | undefined = ROUTE_RESPONSES[accessKey(method, route.url)];
    if (!responses) return;
    route.schema = { ...route.schema, response: { ...responses } };
  });
  if (!check) return;
  app.addHook("onSend", async (request, reply, payload) => {
    const status = reply.statusCode;
    if (status < 200 || status >= 300 || request.method === "HEAD") return payload;
    const responses = ROUTE_RESPONSES[accessKey(request.method, request.routeOptions.url ?? "")];
    if (responses && !(status in responses)) {
      const message = `${request.method} ${request.routeOptions.url} answered ${status}, which its documented responses (${Object.keys(responses).join(", ")}) do not list`;
      process.stderr.write(`${message}\n`);
      throw new Error(message);
    }
    return payload;
  });
}
