export interface Answer {
  status: number;
  message: string;
}

/** Header values allow no control or non-ASCII characters. */
export function headerSafe(message: string): string {
  return message.replace(/[^\x20-\x7e]/g, ' ').slice(0, 500);
}
