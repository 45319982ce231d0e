import { themeClasses } from '@/config/themes';
import { workflows } from '../data/home-content';
import { SectionHeading } from './section-heading';

export function WorkflowsSection() {
  return (
    <section aria-labelledby="workflows-title" className="bg-ink-50 py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="workflows-title"
          eyebrow="How it works"
          title="Optimized Workflows"
          intro="Four clear steps for every audience, automated wherever a machine does it better."
        />
        <div className="mt-12 grid gap-6 lg:grid-cols-3">
          {workflows.map((workflow) => {
            const theme = themeClasses[workflow.theme];
            return (
              <div key={workflow.title} className="rounded-2xl bg-paper p-6 shadow-sm ring-1 ring-ink-200 sm:p-8">
                <h3 className={`text-xl font-bold ${theme.text}`}>{workflow.title}</h3>
                <ol className="mt-6 space-y-4">
                  {workflow.steps.map((step, index) => (
                    <li key={step} className="flex items-center gap-4">
                      <span aria-hidden="true" className={`flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-bold text-white ${theme.solid}`}>
                        {index + 1}
                      </span>
                      <span className="font-medium text-ink-800">{step}</span>
                    </li>
                  ))}
                </ol>
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
