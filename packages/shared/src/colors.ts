/**
 * The colour picker's fixed palette (spec §9: "a fixed palette of about 50 colours"), shared by tags and
 * queues. Rows of related hues from the Material palette, dark to light; the first is the product green.
 */
export const COLOR_PALETTE = [
  // greens
  "#1B5E20",
  "#2E7D32",
  "#388E3C",
  "#43A047",
  "#66BB6A",
  "#00A884",
  // teals and cyans
  "#004D40",
  "#00796B",
  "#26A69A",
  "#006064",
  "#0097A7",
  "#26C6DA",
  // blues
  "#0D47A1",
  "#1565C0",
  "#1E88E5",
  "#42A5F5",
  "#01579B",
  "#039BE5",
  // indigos and purples
  "#1A237E",
  "#3949AB",
  "#5C6BC0",
  "#4A148C",
  "#7B1FA2",
  "#AB47BC",
  // pinks and reds
  "#880E4F",
  "#C2185B",
  "#EC407A",
  "#B71C1C",
  "#D32F2F",
  "#EF5350",
  // oranges and ambers
  "#BF360C",
  "#E64A19",
  "#FF7043",
  "#E65100",
  "#F57C00",
  "#FFA726",
  // yellows and limes
  "#F57F17",
  "#FBC02D",
  "#FFEE58",
  "#827717",
  "#AFB42B",
  "#D4E157",
  // browns and greys
  "#3E2723",
  "#5D4037",
  "#8D6E63",
  "#212121",
  "#616161",
  "#9E9E9E",
  // blue-greys
  "#263238",
  "#546E7A",
  "#90A4AE",
] as const;

export type PaletteColor = (typeof COLOR_PALETTE)[number];

/** Whether a colour is one of the palette's (case-insensitive). */
export const isPaletteColor = (color: string): boolean => COLOR_PALETTE.some((c) => c.toLowerCase() === color.toLowerCase());
