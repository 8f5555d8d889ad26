import { type AgentTool, stringEnum, ToolInputError, Type } from "@clawtools/core";

export const PLAN_STATUSES = ["pending", "in_progress", "completed"] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const updatePlanSchema = Type.Object(
  {
    explanation: Type.Optional(Type.String({ description: "Why the plan changed (optional)." })),
    plan: Type.Array(
      Type.Object(
        {
          step: Type.String({ description: "One step, short." }),
          status: stringEnum(PLAN_STATUSES, { description: "pending, in_progress or completed" }),
        },
        { additionalProperties: true },
      ),
      { minItems: 1, description: "The whole plan; at most one step in_progress." },
    ),
  },
  { additionalProperties: false },
);

export interface PlanStep {
  step: string;
  status: PlanStatus;
  [key: string]: unknown;
}

export interface UpdatePlanDetails {
  status: "updated";
  explanation?: string;
  plan: PlanStep[];
}

/** OpenClaw's checks, with its messages (also for callers that bypass schema validation). */
export function validatePlan(input: { plan?: unknown }): PlanStep[] {
  const plan = input.plan;
  if (!Array.isArray(plan) || plan.length === 0) throw new ToolInputError("plan required");
  let inProgress = 0;
  plan.forEach((item, i) => {
    if (!item || typeof item !== "object" || Array.isArray(item))
      throw new ToolInputError(`plan[${i}] must be an object`);
    const status = (item as { status?: unknown }).status;
    if (typeof status !== "string" || !(PLAN_STATUSES as readonly string[]).includes(status))
      throw new ToolInputError(`plan[${i}].status must be one of ${PLAN_STATUSES.join(", ")}`);
    if (status === "in_progress") inProgress++;
  });
  if (inProgress > 1) throw new ToolInputError("plan can contain at most one in_progress step");
  return plan as PlanStep[];
}

/** A one-line acknowledgement (never empty: an empty result made models call again, OpenClaw #113217). */
export function planAck(plan: PlanStep[]): string {
  const count = (s: PlanStatus) => plan.filter((p) => p.status === s).length;
  const current = plan.find((p) => p.status === "in_progress");
  const parts = [
    `${count("completed")} completed`,
    `${count("in_progress")} in progress`,
    `${count("pending")} pending`,
  ];
  const now = current ? ` Now: ${String(current.step).slice(0, 120)}` : "";
  return `Plan updated (${plan.length} ${plan.length === 1 ? "step" : "steps"}): ${parts.join(", ")}.${now}`;
}

export function createUpdatePlanTool(
  onUpdate: (details: UpdatePlanDetails) => void,
): AgentTool<typeof updatePlanSchema, UpdatePlanDetails> {
  return {
    name: "update_plan",
    label: "Update plan",
    description:
      "Record the task plan: the whole list of steps with their status (pending, in_progress, completed), at most one in_progress. Call it when the plan changes; no need to repeat an unchanged plan.",
    parameters: updatePlanSchema,
    async execute(_id, params) {
      const plan = validatePlan(params as { plan?: unknown });
      const explanation = typeof params.explanation === "string" ? params.explanation.trim() : "";
      const details: UpdatePlanDetails = {
        status: "updated",
        ...(explanation ? { explanation } : {}),
        plan: plan.map((p) => ({ ...p })),
      };
      onUpdate(details);
      return { content: [{ type: "text", text: planAck(plan) }], details };
    },
  };
}
