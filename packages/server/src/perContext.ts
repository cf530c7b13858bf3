import type { AppContext } from "./context";

/** What `create` built for each key object, built on first use and dropped with its key (a WeakMap). */
export function oncePer<K extends object, T>(create: (key: K) => T): (key: K) => T {
  const built = new WeakMap<K, T>();
  return (key) => {
    let value = built.get(key);
    if (value === undefined) {
      value = create(key);
      built.set(key, value);
    }
    return value;
  };
}

/**
 * A lazily built instance per app context: the routes, the start hooks and the tests of one app share it, and
 * two apps in one process (the tests' second process, a restart) never do. It goes with its context.
 */
export function perContext<T extends object>(create: (ctx: AppContext) => T): (ctx: AppContext) => T {
  return oncePer(create);
}
