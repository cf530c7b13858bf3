import type { AppContext } from "./context";

/**
 * A lazily built instance per app context: the routes, the start hooks and the tests of one app share it, and
 * two apps in one process (the tests' second process, a restart) never do. It goes with its context.
 */
export function perContext<T extends object>(create: (ctx: AppContext) => T): (ctx: AppContext) => T {
  const instances = new WeakMap<AppContext, T>();
  return (ctx) => {
    let instance = instances.get(ctx);
    if (!instance) {
      instance = create(ctx);
      instances.set(ctx, instance);
    }
    return instance;
  };
}
