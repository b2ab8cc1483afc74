/**
 * A query object as the service reads it: a list is the parameter repeated, an object `name[key]=value`, and an
 * undefined or null value left out. `?` and the parameters, or nothing when none is left.
 */
export function queryString(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  const add = (name: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (value instanceof Date) search.append(name, value.toISOString());
    else if (typeof value === 'object') throw new TypeError(`the query parameter ${name} is not a text, a number or a list of them`);
    else search.append(name, String(value));
  };
  for (const [name, value] of Object.entries(query ?? {})) {
    if (Array.isArray(value)) value.forEach((item) => add(name, item));
    else if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
      for (const [key, item] of Object.entries(value)) add(`${name}[${key}]`, item);
    } else add(name, value);
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
