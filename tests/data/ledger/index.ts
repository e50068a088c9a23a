import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

// A tiny ledger written for the auditor's own tests: one tool, one state container.
interface Entry {
  label: string;
  weight: number;
  note?: string;
}

class Ledger {
  private entries: Entry[] = [];
  private byLabel: Record<string, Entry[]> = {};

  private check(input: unknown): Entry {
    const d = input as Record<string, unknown>;
    if (typeof d.label !== "string") {
      throw new Error("label must be a string");
    }
    if (typeof d.weight !== "number") {
      throw new Error("weight must be a number");
    }
    return { label: d.label, weight: d.weight, note: d.note as string | undefined };
  }

  record(input: unknown) {
    try {
      const entry = this.check(input);
      this.entries.push(entry);
      if (!this.byLabel[entry.label]) {
        this.byLabel[entry.label] = [];
      }
      this.byLabel[entry.label].push(entry);
      console.error(`recorded ${entry.label}`);
      return {
        content: [{ type: "text", text: JSON.stringify({ total: this.entries.length, labels: Object.keys(this.byLabel) }) }],
      };
    } catch (err) {
      return {
        content: [{ type: "text", text: JSON.stringify({ error: err instanceof Error ? err.message : String(err) }) }],
        isError: true,
      };
    }
  }
}

const RECORD_TOOL = {
  name: "record_entry",
  description: "Store a labelled weight in the ledger.",
  inputSchema: {
    type: "object",
    properties: {
      label: { type: "string" },
      weight: { type: "number" },
      note: { type: "string" },
    },
    required: ["label", "weight"],
  },
};

const server = new Server({ name: "ledger", version: "1.0.0" }, { capabilities: { tools: {} } });
const ledger = new Ledger();

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [RECORD_TOOL] }));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === "record_entry") {
    return ledger.record(request.params.arguments);
  }
  return { content: [{ type: "text", text: `no such tool: ${request.params.name}` }], isError: true };
});

async function main() {
  const transport = new StdioServerTransport();
  await server.connect(transport);
  console.error("ledger ready");
}

main().catch((error) => {
  console.error("fatal:", error);
  process.exit(1);
});
