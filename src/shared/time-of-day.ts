/** "HH:MM" or "HH:MM:SS" as seconds since midnight ("24:00" is 86,400). */
export function secondsOfDay(hhmm: string): number {
  const [h, m, s] = hhmm.split(':').map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + Math.floor(s ?? 0);
}
