import { sql, type SQL, type AnyColumn } from "drizzle-orm";

const ACCENTED = "áàâãäåéèêëíìîïóòôõöúùûüçñýÿ";
const PLAIN = "aaaaaaeeeeiiiiooooouuuucnyy";

/** Lower-cases and strips accents the same way `foldColumn` does in SQL. */
export function foldText(value: string): string {
  let out = "";
  for (const ch of value.toLowerCase()) {
    const i = ACCENTED.indexOf(ch);
    out += i >= 0 ? PLAIN[i] : ch;
  }
  return out;
}

/**
 * Case- and accent-insensitive form of a column. Uses translate() rather than the unaccent extension,
 * which needs superuser rights to install (not granted on every managed PostgreSQL).
 */
export function foldColumn(column: AnyColumn | SQL): SQL {
  // Literals, not parameters: the trigram indexes are built on this exact expression, and the planner
  // only uses an expression index when the query spells the expression the same way.
  return sql`translate(lower(${column}), ${sql.raw(`'${ACCENTED}'`)}, ${sql.raw(`'${PLAIN}'`)})`;
}

/** The trigram index expression for a column (see the search migration). */
export function foldIndexExpression(column: AnyColumn): SQL {
  return sql`translate(lower(${column}), ${sql.raw(`'${ACCENTED}'`)}, ${sql.raw(`'${PLAIN}'`)}) gin_trgm_ops`;
}

/** `%term%` for LIKE with the user's wildcards escaped. */
export function containsPattern(term: string): string {
  return `%${foldText(term).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
