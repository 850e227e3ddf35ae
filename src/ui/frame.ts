// A callTracer frame as the viewer and the HTML report read it (go-ethereum's callFrame with logs).
// No DOM here: the report's builder, outside the browser, uses it too.
export interface Frame {
  type: string;
  from: string;
  to?: string;
  value?: string;
  gas: string;
  gasUsed: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: Frame[];
  logs?: { address: string; topics?: string[]; data: string; position: string }[];
}
