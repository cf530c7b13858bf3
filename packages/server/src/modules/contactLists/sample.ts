import ExcelJS from "exceljs";

/** The sample spreadsheet of the contact lists page: the headers the import recognises and two example rows. */
const HEADERS = ["Nome", "Número", "Email"];
const ROWS = [
  ["Maria Souza", "5511987654321", "maria@exemplo.com.br"],
  ["João Lima", "(21) 98765-4321", ""],
];

export const SAMPLE_FILE_NAME = "modelo-lista-de-contatos";

export async function sampleXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Contatos");
  sheet.columns = HEADERS.map((header) => ({ header, width: 28 }));
  sheet.getRow(1).font = { bold: true };
  // Numbers as text: a spreadsheet program would otherwise show 5.51E+12.
  for (const row of ROWS) sheet.addRow(row).getCell(2).numFmt = "@";
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** ';'-separated with a BOM, as spreadsheet programs in Brazil open it. */
export function sampleCsv(): Buffer {
  const lines = [HEADERS, ...ROWS].map((cells) => cells.map((c) => (/[;"\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(";"));
  return Buffer.from(`\uFEFF${lines.join("\r\n")}\r\n`, "utf8");
}
