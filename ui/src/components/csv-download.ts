import { csvText, type CsvValue } from './csv';

/** Hands the file to the browser as a download named `fileName`. */
export function downloadCsv(fileName: string, header: string[], rows: CsvValue[][]): void {
  const url = URL.createObjectURL(new Blob([csvText(header, rows)], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
