// expected: cannot convert value of type 'Int' to expected argument type 'String'
import WebServiceKit

func blockingWrongType(_ client: WebServiceClient) throws {
    _ = try client.performSynchronously(.userRepos, "octocat", 7)
}
