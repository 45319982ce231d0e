//! Bounds on what one GraphQL document may ask for: depth, complexity (lists cost their page
//! size times their items), directives and aliases. Each refusal is a clear error.

use async_graphql::{
    ErrorExtensions, ServerError, ServerResult,
    parser::types::{ExecutableDocument, Selection, SelectionSet},
};

/// Deep enough for the standard introspection query (GraphiQL, code generators), which nests
/// `ofType` seven times; our own types are at most five levels deep.
pub const MAX_DEPTH: usize = 16;
pub const MAX_COMPLEXITY: usize = 1_000;
pub const MAX_DIRECTIVES: usize = 8;
/// The site's own documents use a handful (the REST adapter one); a field asked for twenty
/// times under different names is an attempt to multiply work.
pub const MAX_ALIASES: usize = 20;
/// Operations in one batched HTTP request.
pub const MAX_BATCH: usize = 10;

/// The complexity of a paged list: each of up to `first` items costs what one item asks for
/// (20 when `first` is left out, 50 at most, as the resolvers clamp it).
pub fn page_cost(first: Option<i32>, child_complexity: usize) -> usize {
    let items = first.map_or(20, |n| n.clamp(1, 50));
    usize::try_from(items).unwrap_or(50) * child_complexity + 1
}

/// Refuses documents with more than [`MAX_ALIASES`] aliases, counted over every operation and
/// fragment. Checked when a document is parsed (`documents::parse`), before anything runs.
///
/// # Errors
/// A `BAD_USER_INPUT` error naming the limit.
pub fn check_aliases(document: &ExecutableDocument) -> ServerResult<()> {
    let aliases = document
        .operations
        .iter()
        .map(|(_, op)| count(&op.node.selection_set.node))
        .chain(
            document
                .fragments
                .values()
                .map(|f| count(&f.node.selection_set.node)),
        )
        .sum::<usize>();
    if aliases > MAX_ALIASES {
        let error =
            async_graphql::Error::new(format!("Too many aliases in one request ({MAX_ALIASES} at most)"))
                .extend_with(|_, ext| ext.set("code", "BAD_USER_INPUT"));
        return Err(ServerError {
            extensions: error.extensions,
            ..ServerError::new(error.message, None)
        });
    }
    Ok(())
}

fn count(set: &SelectionSet) -> usize {
    set.items
        .iter()
        .map(|item| match &item.node {
            Selection::Field(field) => {
                usize::from(field.node.alias.is_some()) + count(&field.node.selection_set.node)
            }
            Selection::InlineFragment(fragment) => count(&fragment.node.selection_set.node),
            Selection::FragmentSpread(_) => 0,
        })
        .sum()
}

/// Gives an argument that does not parse (an `Int` past 32 bits, say) the code every input
/// error has, `BAD_USER_INPUT`: async-graphql reports it as a field error without one.
pub struct ArgumentErrors;

impl async_graphql::extensions::ExtensionFactory for ArgumentErrors {
    fn create(&self) -> std::sync::Arc<dyn async_graphql::extensions::Extension> {
        std::sync::Arc::new(ArgumentErrors)
    }
}

#[async_graphql::async_trait::async_trait]
impl async_graphql::extensions::Extension for ArgumentErrors {
    async fn execute(
        &self,
        ctx: &async_graphql::extensions::ExtensionContext<'_>,
        operation_name: Option<&str>,
        next: async_graphql::extensions::NextExecute<'_>,
    ) -> async_graphql::Response {
        let mut response = next.run(ctx, operation_name).await;
        for error in &mut response.errors {
            let coded = error
                .extensions
                .as_ref()
                .is_some_and(|ext| ext.get("code").is_some());
            if !coded && error.message.starts_with("Failed to parse") {
                error
                    .extensions
                    .get_or_insert_with(Default::default)
                    .set("code", "BAD_USER_INPUT");
            }
        }
        response
    }
}
