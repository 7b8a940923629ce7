/**
 * A list's total as the dashboard says it: "1 contact", "25 contacts", or "about 1,000,312
 * contacts" when the API estimated it (count_exact false: more than it counts exactly matched).
 */
export function totalOf(count: number, exact: boolean | undefined, one: string, many = `${one}s`): string {
  if (exact === false) return `about ${count.toLocaleString('en')} ${many}`;
  return count === 1 ? `1 ${one}` : `${count} ${many}`;
}
